import Dispatch
import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// The program's entry: `QLBrowse.runAsMain` as a task, the main thread waiting for it and then
/// exiting the process. Swift's own asynchronous `main` hands the main thread to libdispatch,
/// whose `dispatch_main` ends it with `pthread_exit`: every short call then loaded libgcc_s and
/// unwound the main thread's stack through the unwind tables (issue #27, a short call's fixed
/// cost). Nothing here runs on the main actor or the main queue, so the main thread can wait.
@main
enum ProgramEntry {
    static func main() {
        let arguments = Array(ProcessArguments.all.dropFirst())
        let quick = QuickCommandLine.command(arguments)
        // A call the cache answers whole ends here, before the concurrency runtime starts.
        if case .thumbnail(let call)? = quick, ProcessEnvironment.variable("QLBROWSE_CHECK_QUICK_ARGUMENTS") != "1",
           call.answeredFromCache() {
            Glibc.exit(0)
        }
        if case .browse? = quick { BrowseCommand.setUpMemory() }
        let finished = DispatchSemaphore(value: 0)
        Task.detached {
            await QLBrowse.runAsMain(arguments: arguments, quick: quick)
            finished.signal()
        }
        finished.wait()
        Glibc.exit(0)
    }
}
