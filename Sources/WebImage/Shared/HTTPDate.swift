import CCurl
import Foundation

/// HTTP dates (`Date`, `Expires`, `Last-Modified`, `Retry-After`), read by libcurl's `curl_getdate`,
/// which knows RFC 9110's three formats and the lenient variants servers send.
///
/// ```swift
/// HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT")  // 1994-11-06 08:49:37 +0000
/// ```
public enum HTTPDate {
    /// The date, or nil when the text is not one.
    public static func parse(_ text: String) -> Date? {
        let seconds = text.withCString { curl_getdate($0, nil) }
        return seconds < 0 ? nil : Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// `date` as an IMF-fixdate (RFC 9110 §5.6.7): `Sun, 06 Nov 1994 08:49:37 GMT`.
    public static func format(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    /// The media type servers send for a file name's extension (the demo server, the tests' stubs).
    public static func mediaType(ofFileNamed name: String) -> String {
        switch (name as NSString).pathExtension.lowercased() {
        case "jpg", "jpeg": return "image/jpeg"
        case "png": return "image/png"
        case "gif": return "image/gif"
        case "webp": return "image/webp"
        case "jxl": return "image/jxl"
        case "html": return "text/html"
        default: return "application/octet-stream"
        }
    }
}
