import Foundation

/// The freshness information of a stored response (RFC 9111 §4.2), kept next to its
/// ``HTTPValidators``: what the server said about how long the bytes may be used without asking.
///
/// This cache is private (one user), so `s-maxage`, `public` and `private` play no part.
/// Freshness lifetime, in order: `max-age`; else `Expires` − `Date`; else heuristic, 10% of
/// (`Date` − `Last-Modified`) capped at one day; else zero (stale at once, revalidated on use).
public struct HTTPFreshness: Sendable, Hashable, Codable {
    /// The longest heuristic freshness lifetime (RFC 9111 §4.2.2 leaves the cap to the cache).
    public static let heuristicCap: TimeInterval = 86_400

    /// When the response was received (the cache's clock).
    public var receivedAt: Date
    /// The `Date` header (the server's clock), if present and valid.
    public var date: Date?
    /// The `Age` header, in seconds (0 when absent or invalid).
    public var age: TimeInterval
    /// `Cache-Control: max-age`, in seconds.
    public var maxAge: TimeInterval?
    /// The `Expires` header; an invalid value (such as "0") counts as already expired.
    public var expires: Date?
    /// The `Last-Modified` header, parsed (for heuristic freshness).
    public var lastModified: Date?
    /// `Cache-Control: no-cache`: must be revalidated before every use.
    public var noCache: Bool
    /// `Cache-Control: no-store`: must not be written to disk.
    public var noStore: Bool
    /// `Cache-Control: must-revalidate`: once stale, must not be shown before revalidation succeeds.
    public var mustRevalidate: Bool

    /// Creates freshness information field by field.
    public init(receivedAt: Date, date: Date? = nil, age: TimeInterval = 0, maxAge: TimeInterval? = nil,
                expires: Date? = nil, lastModified: Date? = nil, noCache: Bool = false, noStore: Bool = false,
                mustRevalidate: Bool = false) {
        self.receivedAt = receivedAt
        self.date = date
        self.age = age
        self.maxAge = maxAge
        self.expires = expires
        self.lastModified = lastModified
        self.noCache = noCache
        self.noStore = noStore
        self.mustRevalidate = mustRevalidate
    }

    /// Parses the response headers (names lowercased, as ``DownloadResponse`` has them) of a
    /// response received at `receivedAt`. Malformed values are ignored, never fatal.
    public init(headers: [String: String], receivedAt: Date) {
        self.init(receivedAt: receivedAt)
        date = headers["date"].flatMap(HTTPDate.parse)
        if let value = headers["age"]?.trimmingCharacters(in: .whitespaces), let seconds = UInt32(value) {
            age = TimeInterval(seconds)
        }
        if let value = headers["expires"] {
            expires = HTTPDate.parse(value) ?? .distantPast
        }
        lastModified = headers["last-modified"].flatMap(HTTPDate.parse)
        for (name, value) in Self.directives(headers["cache-control"] ?? "") {
            switch name {
            case "max-age":
                if let value, let seconds = UInt32(value) { maxAge = min(maxAge ?? .infinity, TimeInterval(seconds)) }
                else { maxAge = 0 }  // RFC 9111 §4.2.1: an invalid max-age makes the response stale
            case "no-cache": noCache = true
            case "no-store": noStore = true
            case "must-revalidate", "proxy-revalidate": mustRevalidate = true
            default: break
            }
        }
    }

    /// How long the response may be used without revalidation (RFC 9111 §4.2.1).
    public var freshnessLifetime: TimeInterval {
        if let maxAge { return maxAge }
        if let expires { return max(0, expires.timeIntervalSince(date ?? receivedAt)) }
        if let lastModified {
            let since = (date ?? receivedAt).timeIntervalSince(lastModified)
            return min(Self.heuristicCap, max(0, since / 10))
        }
        return 0
    }

    /// The response's age at `now` (RFC 9111 §4.2.3, without the request delay).
    public func currentAge(at now: Date) -> TimeInterval {
        let apparentAge = max(0, receivedAt.timeIntervalSince(date ?? receivedAt))
        return max(apparentAge, age) + max(0, now.timeIntervalSince(receivedAt))
    }

    /// Whether the stored response may be used at `now` with no request at all.
    public func isFresh(at now: Date) -> Bool {
        !noCache && !noStore && freshnessLifetime > currentAge(at: now)
    }

    /// Whether response headers (lowercased names) forbid storing the body on disk (`no-store`).
    public static func forbidsStorage(_ headers: [String: String]) -> Bool {
        directives(headers["cache-control"] ?? "").contains { $0.name == "no-store" }
    }

    /// The freshness after a revalidation answered at `receivedAt` with `headers` (a 304, RFC 9111
    /// §4.3.4): the new response's Date/Age restart the clock; a header the 304 leaves out keeps its stored value.
    public func updated(with headers: [String: String], receivedAt: Date) -> HTTPFreshness {
        var new = HTTPFreshness(headers: headers, receivedAt: receivedAt)
        if headers["cache-control"] == nil {
            new.maxAge = maxAge
            new.noCache = noCache
            new.noStore = noStore
            new.mustRevalidate = mustRevalidate
        }
        if headers["expires"] == nil { new.expires = expires }
        if headers["last-modified"] == nil { new.lastModified = lastModified }
        return new
    }

    /// `Cache-Control` directives: lowercased names, unquoted values.
    static func directives(_ header: String) -> [(name: String, value: String?)] {
        header.split(separator: ",").compactMap { part in
            let pieces = part.split(separator: "=", maxSplits: 1)
            guard let rawName = pieces.first else { return nil }
            let name = rawName.trimmingCharacters(in: .whitespaces).lowercased()
            guard !name.isEmpty else { return nil }
            let value = pieces.count > 1
                ? pieces[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                : nil
            return (name, value)
        }
    }
}
