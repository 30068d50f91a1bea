/// One frame from a worker with the answer it holds, read once: the pool reads the answer to
/// route it, and the service passes the frame on as it came (`WorkerPool.replies(to:deadlineSeconds:)`).
package struct WorkerReply: Sendable {
    package let answer: WorkerAnswer
    /// As the worker wrote it, under the pool's request id.
    package let frame: WorkerFrame

    package init(answer: WorkerAnswer, frame: WorkerFrame) {
        self.answer = answer
        self.frame = frame
    }
}
