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
}
