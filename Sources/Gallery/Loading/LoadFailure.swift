/// Why a load for the contact sheet failed, in a few words ("file not found", "404 Not Found").
public struct LoadFailure: Error, Sendable, Hashable {
    /// "file not found", "not an image (text)" (sanitized again before display).
    public var message: String
}
