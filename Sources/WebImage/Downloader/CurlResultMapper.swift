import CCurl
import Foundation

/// Turns a finished transfer (curl code, our abort reason, the status) into a typed result.
enum CurlResultMapper {
    static func result(of transfer: CurlTransfer, code: CURLcode) -> Result<DownloadResponse, DownloadError> {
        let url = transfer.request.url
        let response = transfer.response
        if let abort = transfer.abort {
            switch abort {
            case .badStatus: return .failure(statusError(response, url: url))
            case .tooLarge:
                return .failure(.tooLarge(url: url, limit: transfer.request.maxBytes, announced: transfer.announcedLength))
            case .timedOut:
                return .failure(.timedOut(url: url, phase: transfer.timeoutPhase, limit: transfer.request.timeout))
            case .pastDeadline:
                return .failure(.timedOut(url: url, phase: .deadline(received: transfer.wireBytes), limit: transfer.request.deadline))
            }
        }
        guard code == CURLE_OK else { return .failure(error(for: code, transfer: transfer)) }
        transfer.deliverResponseOnce()
        if (200..<300).contains(response.statusCode) { return .success(response) }
        return .failure(statusError(response, url: url))
    }

    static func statusError(_ response: DownloadResponse, url: URL) -> DownloadError {
        if response.statusCode == 304 { return .notModified(url: url, validators: response.validators, headers: response.headers) }
        return .badStatus(url: url, code: response.statusCode, reason: response.reason)
    }

    static func error(for code: CURLcode, transfer: CurlTransfer) -> DownloadError {
        let url = transfer.request.url
        let message = transfer.curlMessage(code)
        switch code {
        case CURLE_OPERATION_TIMEDOUT:
            // In the body, curl's own timeout is the minimum rate: the session's idle check
            // (millisecond resolution) catches a body that stopped before curl would.
            if case .body(let received) = transfer.timeoutPhase, received > 0 {
                return .timedOut(url: url, phase: .belowMinimumRate(received: received), limit: transfer.request.timeout)
            }
            return .timedOut(url: url, phase: transfer.timeoutPhase, limit: transfer.request.timeout)
        case CURLE_COULDNT_CONNECT: return .cannotConnect(url: url, message: message)
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: return .cannotResolveHost(url: url, message: message)
        case CURLE_PARTIAL_FILE, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_GOT_NOTHING, CURLE_HTTP2, CURLE_HTTP2_STREAM:
            if transfer.osErrno == Int(ECONNRESET) { return .connectionReset(url: url, received: transfer.wireBytes) }
            if code == CURLE_PARTIAL_FILE { return .truncated(url: url, received: transfer.wireBytes, expected: transfer.contentLength) }
            return .connectionLost(url: url, message: message)
        case CURLE_BAD_CONTENT_ENCODING:
            return .badContentEncoding(url: url, encoding: transfer.headers["content-encoding"] ?? "?", message: message)
        case CURLE_FILESIZE_EXCEEDED:
            let limit = transfer.request.maxBytes
            let announced = transfer.contentLength.flatMap { $0 > limit ? $0 : nil }
            return .tooLarge(url: url, limit: limit, announced: announced)
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
             CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_SHUTDOWN_FAILED,
             CURLE_SSL_CRL_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS,
             CURLE_SSL_CLIENTCERT, CURLE_USE_SSL_FAILED:
            return .tlsFailure(url: url, message: message)
        case CURLE_TOO_MANY_REDIRECTS: return .tooManyRedirects(url: url, limit: CurlEasyConfigurator.maxRedirects)
        case CURLE_UNSUPPORTED_PROTOCOL:
            guard transfer.sawRedirect else { return .invalidURL(url.absoluteString) }
            return .redirectRefused(url: url, target: transfer.redirectTarget ?? "?")
        case CURLE_URL_MALFORMAT: return .invalidURL(url.absoluteString)
        case CURLE_ABORTED_BY_CALLBACK: return .cancelled(url: url)
        default: return .transferFailed(url: url, curlCode: Int(code.rawValue), message: message)
        }
    }
}
