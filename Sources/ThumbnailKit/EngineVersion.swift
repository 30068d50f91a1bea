/// The version written into cache entries and fail folders.
public enum EngineVersion {
    public static let string = "0.1.0"
}
