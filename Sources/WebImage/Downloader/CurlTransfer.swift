import SafeText
import CCurl
import Foundation
import Synchronization

/// One HTTP transfer: request, easy handle, response parsing, byte counting.
///
/// `@unchecked Sendable`: every mutable stored property except `cancelled` is touched only on the
/// session's network thread (configured there, read by curl callbacks there, torn down there);
/// `cancelled` is an `Atomic`.
final class CurlTransfer: @unchecked Sendable {
    /// Why the transfer stopped on our side (set in a callback or the loop, read at completion).
    enum Abort: Sendable { case badStatus, tooLarge, timedOut, pastDeadline }

    let request: CurlRequest
    let delegate: any CurlTransferDelegate
    /// Set by `CurlSession.cancel` on any thread; the loop removes the handle.
    let cancelled = Atomic<Bool>(false)

    // Network-thread state.
    var easy: UnsafeMutableRawPointer?
    var headerList: UnsafeMutablePointer<curl_slist>?
    /// `headerList` without `CurlRequest.originOnlyHeaders`: what a redirect to another origin gets.
    var crossOriginHeaderList: UnsafeMutablePointer<curl_slist>?
    let errorBuffer: UnsafeMutablePointer<CChar>
    var abort: Abort?
    var lastActivity: ContinuousClock.Instant = .now
    /// When the transfer was made (for `CurlRequest.deadline`).
    let started: ContinuousClock.Instant = .now
    var received: Int64 = 0
    var status = 0
    var reason = ""
    var headers: [String: String] = [:]
    var sawRedirect = false
    /// The `Location` of the last redirect response (sanitized), for a refused redirect's error.
    var redirectTarget: String?
    /// The header block of the final response (not a redirect's, not a 1xx) has ended.
    var finalHeadersReceived = false
    /// The `Content-Length` that made the transfer refuse the body (over the size cap).
    var announcedLength: Int64?
    var responseDelivered = false

    init(request: CurlRequest, delegate: any CurlTransferDelegate) {
        self.request = request
        self.delegate = delegate
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    deinit { errorBuffer.deallocate() }

    /// The response head parsed so far.
    var response: DownloadResponse {
        var url = request.url
        if let easy {
            var raw: UnsafePointer<CChar>?
            if sdg_curl_easy_getinfo_str(easy, CURLINFO_EFFECTIVE_URL, &raw) == CURLE_OK, let raw,
               let effective = URL(string: String(cString: raw)) {
                url = effective
            }
        }
        return DownloadResponse(statusCode: status, reason: reason, headers: headers, url: url)
    }

    /// curl's message for the last error (the error buffer, else the code's text), sanitized.
    func curlMessage(_ code: CURLcode) -> String {
        let buffered = String(cString: errorBuffer)
        let text = buffered.isEmpty ? String(cString: curl_easy_strerror(code)) : buffered
        return UntrustedText.sanitize(text)
    }

    // MARK: Callbacks (network thread)

    /// One header line (status line, header, or the blank line ending a block); returns false to
    /// abort the transfer (a success announcing a body over the size cap).
    func handleHeaderLine(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        lastActivity = .now
        let line = String(decoding: bytes, as: UTF8.self)
        let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("HTTP/") {
            let parts = trimmed.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
            status = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
            reason = parts.count > 2 ? UntrustedText.sanitize(String(parts[2])) : ""
            headers = [:]
            finalHeadersReceived = false
        } else if trimmed.isEmpty {
            if (300..<400).contains(status), status != 304, let location = headers["location"] {
                sawRedirect = true
                redirectTarget = location
            } else if status >= 200 {
                finalHeadersReceived = true
            }
        } else if let colon = trimmed.firstIndex(of: ":") {
            let name = trimmed[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = UntrustedText.sanitize(String(trimmed[trimmed.index(after: colon)...]))
            if let old = headers[name] { headers[name] = old + ", " + value } else { headers[name] = value }
            // Refuse an oversize body from its announcement, before a byte of it is read. Done here
            // rather than with CURLOPT_MAXFILESIZE, which fails before this callback sees the header
            // and so leaves no trace of the announced size for the error message.
            if name == "content-length", (200..<300).contains(status), request.maxBytes > 0,
               let announced = Int64(value), announced > request.maxBytes {
                announcedLength = announced
                abort = .tooLarge
                return false
            }
        }
        return true
    }

    /// Tells the delegate about the final response head, once.
    func deliverResponseOnce() {
        guard !responseDelivered, status > 0 else { return }
        responseDelivered = true
        delegate.transferDidReceiveResponse(response)
    }

    /// Body bytes; returns false to abort the transfer (bad status, over the size cap, cancelled).
    func handleBody(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        lastActivity = .now
        if cancelled.load(ordering: .relaxed) { return false }
        deliverResponseOnce()
        if cancelled.load(ordering: .relaxed) { return false }  // the response made the delegate stop it
        guard (200..<300).contains(status) else { abort = .badStatus; return false }
        received += Int64(bytes.count)
        if request.maxBytes > 0 && received > request.maxBytes { abort = .tooLarge; return false }
        delegate.transferDidReceive(Data(buffer: bytes), received: received, expected: expectedDecodedLength)
        return true
    }

    /// The body length the write callback will see, -1 when unknown. `Content-Length` counts the
    /// bytes on the wire: with a `Content-Encoding` curl hands over the decoded bytes, whose number
    /// is unknown (a gzip-encoded image would otherwise show "250%").
    var expectedDecodedLength: Int64 {
        if let encoding = headers["content-encoding"], !encoding.isEmpty, encoding.lowercased() != "identity" { return -1 }
        return contentLength ?? -1
    }

    // MARK: Facts for error messages (network thread, handle still attached)

    /// The announced `Content-Length` of the final response (wire bytes), if any.
    var contentLength: Int64? {
        guard let value = infoOff(CURLINFO_CONTENT_LENGTH_DOWNLOAD_T), value >= 0 else { return nil }
        return value
    }

    /// Body bytes received on the wire (before content decoding).
    var wireBytes: Int64 { infoOff(CURLINFO_SIZE_DOWNLOAD_T) ?? received }

    /// The `errno` of the last failed socket call (ECONNRESET for a reset), 0 when none.
    var osErrno: Int { infoLong(CURLINFO_OS_ERRNO) ?? 0 }

    /// Which wait was running when the transfer timed out.
    var timeoutPhase: DownloadError.TimeoutPhase {
        if finalHeadersReceived { return .body(received: wireBytes) }
        // A request on the wire (or a response under way) means the connection is up. Not
        // CURLINFO_CONNECT_TIME_T alone: it stays 0 on a reused connection.
        if status > 0 || (infoLong(CURLINFO_REQUEST_SIZE) ?? 0) > 0 { return .waitingForResponse }
        return (infoOff(CURLINFO_CONNECT_TIME_T) ?? 0) > 0 ? .waitingForResponse : .connecting
    }

    private func infoOff(_ info: CURLINFO) -> Int64? {
        guard let easy else { return nil }
        var value: curl_off_t = 0
        return sdg_curl_easy_getinfo_off(easy, info, &value) == CURLE_OK ? Int64(value) : nil
    }

    private func infoLong(_ info: CURLINFO) -> Int? {
        guard let easy else { return nil }
        var value = 0
        return sdg_curl_easy_getinfo_long(easy, info, &value) == CURLE_OK ? value : nil
    }
}

/// curl's write callback: `userdata` is the unretained `CurlTransfer` (kept alive by the session).
let curlWriteCallback: sdg_curl_data_callback = { pointer, size, count, userdata in
    guard let userdata else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue()
    let length = size * count
    let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(pointer)?.assumingMemoryBound(to: UInt8.self), count: length)
    return transfer.handleBody(bytes) ? length : 0
}

/// curl's header callback: `userdata` is the unretained `CurlTransfer`.
let curlHeaderCallback: sdg_curl_data_callback = { pointer, size, count, userdata in
    guard let userdata else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue()
    let length = size * count
    let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(pointer)?.assumingMemoryBound(to: UInt8.self), count: length)
    return transfer.handleHeaderLine(bytes) ? length : 0
}
