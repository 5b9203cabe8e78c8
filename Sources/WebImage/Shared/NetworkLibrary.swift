import CCurl

/// The network library this process runs against, for `sdgallery --version`.
public enum NetworkLibrary {
    /// libcurl's own version line ("libcurl/7.88.1 OpenSSL/3.0.17 zlib/1.2.13 …").
    public static var curlVersion: String { String(cString: sdg_curl_version()) }
}
