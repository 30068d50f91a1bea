import SystemKit
import ThumbnailWorker

// The worker process: all decoding of file content happens here, under limits, so a hostile
// file can cost one file and never the browser. Started and spoken to by `qlbrowse` over pipes.
WorkerLoop.run(arguments: Array(ProcessArguments.all.dropFirst()))
