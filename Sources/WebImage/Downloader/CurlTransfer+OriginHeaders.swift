import CCurl
import Foundation

/// `--header` values only for the URL's own origin: libcurl sends custom headers to every host a
/// redirect reaches (it strips only `Authorization` and `Cookie`), and has no option to keep
/// them home. Before each request of the transfer (`CURLOPT_PREREQFUNCTION`, redirects included)
/// the header list is chosen by the origin of the URL about to be requested: the full list at
/// the first URL's origin, the list without `CurlRequest.originOnlyHeaders` anywhere else.
///
/// libcurl's general rule forbids calling it from its callbacks unless a function says otherwise.
/// This callback calls `curl_easy_getinfo(CURLINFO_EFFECTIVE_URL)` and `curl_easy_setopt(
/// CURLOPT_HTTPHEADER)`, which in libcurl 7.88 read a string and store a pointer; the header list
/// is read afterwards, when the request is built (`OriginOnlyHeadersTests` pins this down). The
/// sanctioned alternative is following redirects by hand for requests with such headers.
extension CurlTransfer {
    /// Builds the cross-origin list and sets the callback, when some header is origin-only
    /// (network thread, while configuring `easy`).
    func configureOriginOnlyHeaders(_ easy: UnsafeMutableRawPointer, context: UnsafeMutableRawPointer) {
        let originOnly = request.originOnlyHeaders
        guard !originOnly.isEmpty, request.headers.contains(where: { originOnly.contains($0.name.lowercased()) }) else { return }
        var list: UnsafeMutablePointer<curl_slist>?
        for header in request.headers where !originOnly.contains(header.name.lowercased()) {
            list = curl_slist_append(list, CurlEasyConfigurator.headerLine(header))
        }
        crossOriginHeaderList = list
        _ = sdg_curl_easy_set_prereq_callback(easy, curlPrereqCallback, context)
    }

    /// Called by libcurl before each request: points `CURLOPT_HTTPHEADER` at the list for the
    /// origin of the URL it is about to request (the redirect target, after a redirect).
    func chooseHeadersForNextRequest() {
        guard let easy else { return }
        var pointer: UnsafePointer<CChar>?
        _ = sdg_curl_easy_getinfo_str(easy, CURLINFO_EFFECTIVE_URL, &pointer)
        let next = pointer.flatMap { URL(string: String(cString: $0)) }
        let home = next.map { Self.origin(of: $0) == Self.origin(of: request.url) } ?? false
        _ = sdg_curl_easy_setopt_slist(easy, CURLOPT_HTTPHEADER, home ? headerList : crossOriginHeaderList)
    }

    /// Scheme, host and port (the scheme's default when absent), lowercased: RFC 6454's origin.
    static func origin(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(url.host?.lowercased() ?? ""):\(port)"
    }
}

/// curl's pre-request callback: `clientp` is the unretained `CurlTransfer`. Returns
/// `CURL_PREREQFUNC_OK` (0) always: the request goes ahead, with the headers for its origin.
let curlPrereqCallback: sdg_curl_prereq_callback = { clientp, _, _, _, _ in
    guard let clientp else { return 0 }
    Unmanaged<CurlTransfer>.fromOpaque(clientp).takeUnretainedValue().chooseHeadersForNextRequest()
    return 0
}
