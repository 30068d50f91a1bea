import FileSystemKit
import SystemKit

extension LocalPlace {
    public func textLines(_ path: String, from first: Int, count: Int) async throws(FileSystemError) -> TextFileWindow.Lines {
        let window = textWindows.withLock { windows in
            if let known = windows[path] { return known }
            if windows.count >= 8 { windows.removeAll() }
            let window = TextFileWindow(path: path)
            windows[path] = window
            return window
        }
        // On the volume's own threads: a dead share blocks only its own calls.
        return try await call(path, deadline: 10) { () throws(FileSystemError) -> TextFileWindow.Lines in
            do throws(TextFileWindow.Failure) {
                return try window.lines(from: first, count: count)
            } catch {
                throw error.fileSystemError(path)
            }
        }
    }
}

extension TextFileWindow.Failure {
    /// As a place's failure: a file that is not a regular one is `.unsupported`, with what it is.
    func fileSystemError(_ path: String) -> FileSystemError {
        switch self {
        case .refused(let what): FileSystemError(code: .unsupported, path: path, context: what)
        case .unreadable(let reason): FileSystemError(code: .other, path: path, context: reason)
        }
    }
}
