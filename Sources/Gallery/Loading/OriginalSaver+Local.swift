import Foundation
import ImageCodecs
import SafeFiles
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
        let file: OpenedFile
        switch SafeFile.openForReading(path) {
        case .success(let opened): file = opened
        case .failure(let refusal): return .failure(LocalRefusal(text: refusal.reason))
        }
        defer { close(file.descriptor) }
        guard file.size <= limit else { return .failure(LocalRefusal(text: "file too large (\(file.size >> 20) MB)")) }
        let data: Data
        switch SafeFile.read(file.descriptor, limit: limit) {
        case .success(let read): data = read
        case .failure(let refusal): return .failure(LocalRefusal(text: refusal.reason.hasPrefix("file too large") ? "file too large" : refusal.reason))
        }
        guard ImageFormat.sniff(data).isDecodable else { return .failure(LocalRefusal(text: "not an image")) }
        return .success((data, file.mode & S_IROTH != 0 ? 0o644 : 0o600))
    }
}
