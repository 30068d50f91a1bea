extension String {
    /// The name or path for bytes as the kernel gives them, losslessly (`FileSystemBytes`).
    public init<Bytes: Collection<UInt8>>(fileSystemBytes bytes: Bytes) {
        self = FileSystemBytes.string(from: bytes)
    }

    /// The name or path for bytes as the kernel gives them (the common containers, specialized).
    public init(fileSystemBytes bytes: [UInt8]) {
        self = FileSystemBytes.string(from: bytes)
    }

    /// The name or path for bytes as the kernel gives them.
    public init(fileSystemBytes bytes: ArraySlice<UInt8>) {
        self = FileSystemBytes.string(from: bytes)
    }

    /// The name or path for bytes as the kernel gives them.
    public init(fileSystemBytes bytes: UnsafeBufferPointer<UInt8>) {
        self = FileSystemBytes.string(from: bytes)
    }

    /// The name or path for a NUL-terminated C string from the kernel or a C library, losslessly.
    public init(fileSystemRepresentation pointer: UnsafePointer<CChar>) {
        self = FileSystemBytes.string(fromCString: pointer)
    }

    /// The bytes this name or path stands for: what the kernel must be given.
    public var fileSystemBytes: [UInt8] { FileSystemBytes.bytes(of: self) }

    /// Calls `body` with the NUL-terminated bytes this path stands for: the one way a path
    /// reaches a system call or a C library (never the string's own UTF-8, which would turn a
    /// name that is not UTF-8 into another file's name).
    public func withFileSystemRepresentation<Result, Failure: Error>(
        _ body: (UnsafePointer<CChar>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        var bytes = FileSystemBytes.bytes(of: self)
        bytes.append(0)
        return try bytes.withUnsafeBufferPointer { (buffer) throws(Failure) -> Result in
            try buffer.withMemoryRebound(to: CChar.self) { (chars) throws(Failure) -> Result in try body(chars.baseAddress!) }
        }
    }
}
