import Foundation
import ImageCodecs

/// Loads `file:` URLs: reads and decodes off the caller's thread, within a size cap.
struct LocalFileLoader: Sendable {
    /// Largest local file read (same cap as a download).
    static let maxBytes = 64 << 20
    let decode: @Sendable (Data, DecodeOptions) throws -> Image
    private let queue = DispatchQueue(label: "sdgallery.manager.files", attributes: .concurrent)

    init(decode: @escaping @Sendable (Data, DecodeOptions) throws -> Image) { self.decode = decode }

    func load(_ url: URL, options: DecodeOptions, done: @escaping @Sendable (Result<Image, ImageLoadError>) -> Void) {
        queue.async { [decode] in
            let path = url.path
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
            guard let size else {
                done(.failure(.download(.cannotConnect(url: url, message: "no such file"))))
                return
            }
            guard size <= Self.maxBytes else {
                done(.failure(.download(.tooLarge(url: url, limit: Int64(Self.maxBytes), message: "file is \(size) bytes"))))
                return
            }
            do {
                let data = try Data(contentsOf: url)
                done(.success(try decode(data, options)))
            } catch let error as DecodeError {
                done(.failure(.download(.decodeFailed(url: url, reason: error))))
            } catch {
                done(.failure(.download(.cannotConnect(url: url, message: "cannot read file"))))
            }
        }
    }
}
