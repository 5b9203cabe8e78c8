import Foundation

extension URL {
    /// This URL without `user:password@` (what cache keys and files on disk hold: credentials in a
    /// URL never reach the disk).
    public var removingCredentials: URL {
        guard user != nil || password != nil, var parts = URLComponents(url: self, resolvingAgainstBaseURL: true) else { return self }
        parts.user = nil
        parts.password = nil
        return parts.url ?? self
    }

    /// This URL as text for screens, logs and error messages: a password shows as `***`
    /// (`https://user:***@host/a.jpg`).
    public var redactedString: String {
        guard password != nil, var parts = URLComponents(url: self, resolvingAgainstBaseURL: true) else { return absoluteString }
        parts.percentEncodedPassword = "***"
        return parts.url?.absoluteString ?? removingCredentials.absoluteString
    }
}
