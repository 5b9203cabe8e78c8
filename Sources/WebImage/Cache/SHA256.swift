import CCrypto

/// SHA-256 through libcrypto's EVP interface (OpenSSL is already in the process through libcurl).
/// Names disk-cache files after their keys.
///
/// ```swift
/// SHA256.hex(of: Array("abc".utf8))  // "ba7816bf…f20015ad"
/// ```
public enum SHA256 {
    /// The 32-byte digest of `bytes`.
    public static func hash<Bytes: Sequence>(_ bytes: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        let input = Array(bytes)
        var digest = [UInt8](repeating: 0, count: 32)
        // EVP_Digest of SHA-256 fails only when libcrypto cannot allocate; the all-zero digest then
        // names a file no key maps to by chance, and its stored key check rejects it.
        _ = input.withUnsafeBytes { source in
            digest.withUnsafeMutableBufferPointer { sdg_crypto_sha256(source.baseAddress, source.count, $0.baseAddress) }
        }
        return digest
    }

    /// The digest of `bytes` as 64 lower-case hex digits.
    public static func hex<Bytes: Sequence>(of bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(64)
        for byte in hash(bytes) {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
