import CCurl
import Foundation

/// Sets every option of a fresh easy handle from a `CurlRequest` (network thread only).
enum CurlEasyConfigurator {
    /// Allowed schemes, for the first request and for every redirect.
    static let protocols = "http,https"
    /// Redirects followed before `CURLE_TOO_MANY_REDIRECTS`.
    static let maxRedirects = 10
    /// Receive buffer (curl's default is 16 KB; the curl tool uses 100 KB): fewer, larger callbacks.
    static let receiveBufferSize = 64 * 1024

    static func configure(_ easy: UnsafeMutableRawPointer, for transfer: CurlTransfer, share: UnsafeMutableRawPointer?) {
        let request = transfer.request
        let context = Unmanaged.passUnretained(transfer).toOpaque()
        setString(easy, CURLOPT_URL, request.url.absoluteString)
        setLong(easy, CURLOPT_VERBOSE, 0)
        setLong(easy, CURLOPT_NOSIGNAL, 1)
        _ = sdg_curl_easy_setopt_ptr(easy, CURLOPT_ERRORBUFFER, transfer.errorBuffer)
        setString(easy, CURLOPT_PROTOCOLS_STR, protocols)
        setString(easy, CURLOPT_REDIR_PROTOCOLS_STR, protocols)
        setLong(easy, CURLOPT_FOLLOWLOCATION, 1)
        setLong(easy, CURLOPT_MAXREDIRS, maxRedirects)
        setString(easy, CURLOPT_ACCEPT_ENCODING, "")
        setLong(easy, CURLOPT_BUFFERSIZE, receiveBufferSize)
        // Wait for a possible HTTP/2 connection to multiplex on, only where ALPN can offer one: on
        // plain http curl 7.88 would hold the transfer until the first one on the host ends.
        if request.url.scheme?.lowercased() == "https" { setLong(easy, CURLOPT_PIPEWAIT, 1) }
        setLong(easy, CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_2TLS)
        // The size cap is enforced by the transfer itself: on the announced Content-Length in the header
        // callback (CURLOPT_MAXFILESIZE would fail before the size can be reported) and on the bytes
        // counted in the write callback (chunked, lying or compressed bodies).
        let timeoutMS = max(1, Int(request.timeout.components.seconds * 1000 + request.timeout.components.attoseconds / 1_000_000_000_000_000))
        setLong(easy, CURLOPT_CONNECTTIMEOUT_MS, timeoutMS)
        // The minimum rate: a body slower than `CurlRequest.minimumRate` over one idle timeout is cut
        // (a 2 B/s drip was "loading" for 1144 s, until the overall deadline); also the backstop of
        // stall detection (the session's own idle check, millisecond resolution, fires first).
        setLong(easy, CURLOPT_LOW_SPEED_LIMIT, CurlRequest.minimumRate)
        setLong(easy, CURLOPT_LOW_SPEED_TIME, max(1, (timeoutMS + 999) / 1000))
        _ = sdg_curl_easy_set_write_callback(easy, curlWriteCallback, context)
        _ = sdg_curl_easy_set_header_callback(easy, curlHeaderCallback, context)

        var list: UnsafeMutablePointer<curl_slist>?
        for header in request.headers { list = curl_slist_append(list, headerLine(header)) }
        transfer.headerList = list
        if let list { _ = sdg_curl_easy_setopt_slist(easy, CURLOPT_HTTPHEADER, list) }
        transfer.configureOriginOnlyHeaders(easy, context: context)

        if let username = request.username {
            setLong(easy, CURLOPT_HTTPAUTH, 1)  // CURLAUTH_BASIC
            setString(easy, CURLOPT_USERNAME, username)
            // Without a password, this user's for this host comes from the netrc file (when one is
            // read): libcurl itself, given a user name, sends an empty password.
            let netrcPassword = request.netrcFile.flatMap { NetrcFile.password(forUser: username, host: request.url.host ?? "", file: $0) }
            if let password = request.password ?? netrcPassword { setString(easy, CURLOPT_PASSWORD, password) }
        }
        if request.handleCookies {
            setString(easy, CURLOPT_COOKIEFILE, "")
            if let share { _ = sdg_curl_easy_setopt_share(easy, share) }
        }
        if let file = request.caCertificateFile { setString(easy, CURLOPT_CAINFO, file) }
        if let netrc = request.netrcFile {
            setLong(easy, CURLOPT_NETRC, 1)  // CURL_NETRC_OPTIONAL
            if !netrc.isEmpty { setString(easy, CURLOPT_NETRC_FILE, netrc) }
        }
        if let proxy = request.proxy { setString(easy, CURLOPT_PROXY, proxy) }
        if request.allowInvalidCertificates {
            setLong(easy, CURLOPT_SSL_VERIFYPEER, 0)
            setLong(easy, CURLOPT_SSL_VERIFYHOST, 0)
        }
    }

    /// "Name: value" (or "Name;" for an empty value) without CR, LF or a colon in the name.
    static func headerLine(_ header: (name: String, value: String)) -> String {
        let name = header.name.filter { $0 != "\r" && $0 != "\n" && $0 != ":" }
        let value = header.value.filter { $0 != "\r" && $0 != "\n" }
        return value.isEmpty ? "\(name);" : "\(name): \(value)"
    }

    private static func setLong(_ easy: UnsafeMutableRawPointer, _ option: CURLoption, _ value: Int) {
        _ = sdg_curl_easy_setopt_long(easy, option, value)
    }

    /// curl copies string options, so a temporary C string is enough.
    private static func setString(_ easy: UnsafeMutableRawPointer, _ option: CURLoption, _ value: String) {
        _ = value.withCString { sdg_curl_easy_setopt_str(easy, option, $0) }
    }
}
