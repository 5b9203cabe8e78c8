import Foundation
import ImageCodecs
import WebImage

extension OriginalSaver {
    /// Why a local file is not saved.
    struct LocalRefusal: Error, Equatable {
        /// The reason, for the status line.
        let text: String
    }

    /// A local file's bytes and the mode for its copy, with the checks a load makes: a regular file,
    /// at most `ImageManager.localFileByteLimit` bytes (counted while reading: `/proc` files say 0),
    /// and an image format this build decodes. The copy is 0644 when everyone may read the file,
    /// else 0600.
    static func readLocal(_ path: String, limit: Int = ImageManager.localFileByteLimit) -> Result<(Data, mode_t), LocalRefusal> {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return .failure(LocalRefusal(text: String(cString: strerror(errno)))) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return .failure(LocalRefusal(text: "not a regular file")) }
        guard Int(info.st_size) <= limit else { return .failure(LocalRefusal(text: "file too large (\(info.st_size >> 20) MB)")) }
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue }; return .failure(LocalRefusal(text: String(cString: strerror(errno)))) }
            if n == 0 { break }
            data.append(contentsOf: chunk[..<n])
            if data.count > limit { return .failure(LocalRefusal(text: "file too large")) }
        }
        guard ImageFormat.sniff(data.prefix(16)).isDecodable else { return .failure(LocalRefusal(text: "not an image")) }
        return .success((data, info.st_mode & S_IROTH != 0 ? 0o644 : 0o600))
    }
}
