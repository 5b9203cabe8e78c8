import SafeText
import Foundation
import ImageCodecs

/// Why a download failed. Every case carries the URL and what a user needs to understand the
/// failure: the status, the byte counts, the limit that was hit, the phase that timed out. Text from
/// the network (reason phrases, redirect targets, curl messages) is already stripped of control
/// characters: it is untrusted.
public enum DownloadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Which wait ran out when a download timed out.
    public enum TimeoutPhase: Sendable, Hashable {
        /// No TCP (or TLS) connection within the timeout.
        case connecting
        /// Connected and asked, but no response (not even the status line) within the timeout.
        case waitingForResponse
        /// The body stopped moving after `received` bytes.
        case body(received: Int64)
        /// The body kept moving, too slowly: `received` bytes when the transfer's overall deadline
        /// (`limit`) passed.
        case deadline(received: Int64)
        /// The body moved slower than `CurlRequest.minimumRate` for a whole idle timeout (`limit`).
        case belowMinimumRate(received: Int64)
    }

    /// The URL is missing, malformed, or not http/https.
    case invalidURL(String)
    /// The server answered with a status outside 200–299 (other than 304).
    case badStatus(url: URL, code: Int, reason: String)
    /// The server answered 304 Not Modified to a conditional request: the caller's stored copy is
    /// still valid. Carries the validators and headers (lowercased names) of the 304 response,
    /// which refresh the stored copy's freshness.
    case notModified(url: URL, validators: HTTPValidators, headers: [String: String] = [:])
    /// No bytes moved for longer than the download timeout (`limit`), in `phase`.
    case timedOut(url: URL, phase: TimeoutPhase, limit: Duration)
    /// The TCP connection could not be made (refused, unreachable).
    case cannotConnect(url: URL, message: String)
    /// The host name did not resolve.
    case cannotResolveHost(url: URL, message: String)
    /// The server reset the connection (TCP RST) after `received` body bytes.
    case connectionReset(url: URL, received: Int64)
    /// The connection closed before the body's end: `received` bytes of the `expected` ones that
    /// `Content-Length` announced (nil for a chunked body that never sent its last chunk).
    case truncated(url: URL, received: Int64, expected: Int64?)
    /// The connection broke some other way; `message` is curl's.
    case connectionLost(url: URL, message: String)
    /// The body is larger than the size cap: announced by `Content-Length` (`announced`, refused
    /// before any body byte) or counted while it arrived (`announced` nil). It was never buffered
    /// beyond the cap.
    case tooLarge(url: URL, limit: Int64, announced: Int64?)
    /// The TLS handshake or certificate verification failed.
    case tlsFailure(url: URL, message: String)
    /// More redirects than `limit` (a loop, usually).
    case tooManyRedirects(url: URL, limit: Int)
    /// A redirect to a refused scheme (anything but http/https); `target` is its `Location`.
    case redirectRefused(url: URL, target: String)
    /// The body's `Content-Encoding` (`encoding`, e.g. "gzip") could not be decoded.
    case badContentEncoding(url: URL, encoding: String, message: String)
    /// The download was cancelled.
    case cancelled(url: URL)
    /// The bytes arrived but are not a decodable image.
    case decodeFailed(url: URL, reason: DecodeError)
    /// Any other transfer failure; `curlCode` is libcurl's CURLcode.
    case transferFailed(url: URL, curlCode: Int, message: String)

    /// The URL the error is about (nil only for an unparseable URL).
    public var url: URL? {
        switch self {
        case .invalidURL(let text): return URL(string: text)
        case .badStatus(let url, _, _), .notModified(let url, _, _), .timedOut(let url, _, _),
             .cannotConnect(let url, _), .cannotResolveHost(let url, _), .connectionReset(let url, _),
             .truncated(let url, _, _), .connectionLost(let url, _), .tooLarge(let url, _, _),
             .tlsFailure(let url, _), .tooManyRedirects(let url, _), .redirectRefused(let url, _),
             .badContentEncoding(let url, _, _), .cancelled(let url), .decodeFailed(let url, _),
             .transferFailed(let url, _, _):
            return url
        }
    }

    /// Whether trying again later may succeed (timeouts, DNS and connect failures, lost, reset or
    /// cut connections, cancellation, 5xx/408/429 answers). The manager keeps non-transient failures
    /// in its failed-URL list.
    public var isTransient: Bool {
        switch self {
        case .timedOut, .cannotConnect, .cannotResolveHost, .connectionReset, .truncated, .connectionLost, .cancelled:
            return true
        case .badStatus(_, let code, _): return code >= 500 || code == 408 || code == 429
        case .transferFailed: return true
        case .invalidURL, .notModified, .tooLarge, .tlsFailure, .tooManyRedirects, .redirectRefused,
             .badContentEncoding, .decodeFailed:
            return false
        }
    }

    /// A few words for a gallery cell, without the URL: "404 Not Found", "timed out waiting for the
    /// first byte (2 s)", "body shorter than Content-Length (3000 of 40000 bytes)", "too large:
    /// 10 GB announced, limit 64 MB", "redirect to file: refused". No control characters.
    public var summary: String {
        switch self {
        case .invalidURL: return "invalid URL"
        case .badStatus(_, let code, let reason):
            // Runs of spaces (where control characters were) collapse to one.
            let reason = UntrustedText.sanitize(reason, maxLength: 40).split(separator: " ").joined(separator: " ")
            let head = reason.isEmpty ? "HTTP \(code)" : "\(code) \(reason)"
            return code == 401 || code == 407 ? head + " (login required)" : head
        case .notModified: return "not modified"
        case .timedOut(_, let phase, let limit):
            let seconds = SizeText.duration(limit)
            switch phase {
            case .connecting: return "timed out connecting (\(seconds))"
            case .waitingForResponse: return "timed out waiting for the first byte (\(seconds))"
            case .body(let received): return "stalled after \(SizeText.bytes(received)) (no data for \(seconds))"
            case .deadline(let received): return "too slow: \(SizeText.bytes(received)) in \(seconds)"
            case .belowMinimumRate(let received):
                return "too slow: under \(CurlRequest.minimumRate) B/s for \(seconds) (\(SizeText.bytes(received)) received)"
            }
        case .cannotConnect: return "cannot connect"
        case .cannotResolveHost: return "unknown host"
        case .connectionReset(_, let received):
            return "connection reset by the server" + (received > 0 ? " after \(SizeText.bytes(received))" : "")
        case .truncated(_, let received, let expected?):
            return "body shorter than Content-Length (\(SizeText.bytes(received, of: expected)))"
        case .truncated(_, let received, nil):
            return "connection closed mid-body after \(SizeText.bytes(received))"
        case .connectionLost: return "connection lost"
        case .tooLarge(_, let limit, let announced?):
            return "too large: \(SizeText.size(announced)) announced, limit \(SizeText.size(limit))"
        case .tooLarge(_, let limit, nil): return "too large: over the \(SizeText.size(limit)) limit"
        case .tlsFailure(_, let message): return Self.tlsSummary(message)
        case .tooManyRedirects(_, let limit): return "too many redirects (over \(limit))"
        case .redirectRefused(_, let target): return "redirect to \(Self.scheme(of: target)): refused"
        case .badContentEncoding(_, let encoding, _):
            return "corrupt \(UntrustedText.sanitize(encoding, maxLength: 16)) body (Content-Encoding)"
        case .cancelled: return "cancelled"
        case .decodeFailed(_, let reason): return UntrustedText.sanitize(reason.description, maxLength: 80)
        case .transferFailed(_, let code, _): return "transfer failed (\(code))"
        }
    }

    /// A one-line description with the details and the URL, safe for a terminal.
    public var description: String {
        if case .invalidURL(let text) = self { return "invalid URL: \(UntrustedText.sanitize(text))" }
        guard let url else { return summary }
        let detail: String
        switch self {
        case .cannotConnect(_, let m), .cannotResolveHost(_, let m), .connectionLost(_, let m), .tlsFailure(_, let m),
             .transferFailed(_, _, let m), .badContentEncoding(_, _, let m):
            detail = m.isEmpty ? summary : "\(summary): \(m)"
        case .redirectRefused(_, let target): detail = "redirect to \(target) refused"
        default: detail = summary
        }
        return UntrustedText.sanitize("\(detail) (\(url.redactedString))", maxLength: 1024)
    }

    /// The scheme of a redirect target ("file"), sanitized and short; "?" when there is none.
    static func scheme(of target: String) -> String {
        guard let colon = target.firstIndex(of: ":") else { return "?" }
        let scheme = UntrustedText.sanitize(String(target[..<colon]), maxLength: 16)
        return scheme.isEmpty ? "?" : scheme
    }

    /// What a cell says of a TLS failure, short and specific, from curl's message: "TLS: self-signed
    /// certificate", "TLS: unknown certificate authority", "TLS: certificate expired", "TLS: certificate
    /// is for another host", else curl's own words.
    static func tlsSummary(_ message: String) -> String {
        let text = UntrustedText.sanitize(message, maxLength: 200)
        let lower = text.lowercased()
        let problem: String
        if lower.contains("self-signed") || lower.contains("self signed") {
            problem = "self-signed certificate"
        } else if lower.contains("unable to get local issuer") || lower.contains("unknown ca") {
            problem = "unknown certificate authority"
        } else if lower.contains("expired") {
            problem = "certificate expired"
        } else if lower.contains("subject name") || lower.contains("does not match target host") {
            problem = "certificate is for another host"
        } else if let range = lower.range(of: "certificate problem: ") {
            problem = String(String(text[range.upperBound...]).prefix(60))
        } else {
            problem = text.isEmpty ? "handshake failed" : String(text.prefix(60))
        }
        return "TLS: " + problem
    }
}
