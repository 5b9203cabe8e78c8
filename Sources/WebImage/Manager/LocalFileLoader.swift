import Foundation
import ImageCodecs

/// Loads `file:` URLs: reads and decodes off the caller's thread, within a size cap, a few at a
/// time (one per core, at least two: a file that inflates to a large canvas holds its memory while it
/// decodes, so their number is bounded as network loads are).
struct LocalFileLoader: Sendable {
    /// Largest local file read (same cap as a download).
    static let maxBytes = 64 << 20
    /// Most files read and decoded at once.
    static let maxConcurrentLoads = max(2, ProcessInfo.processInfo.activeProcessorCount)
    let decode: @Sendable (Data, DecodeOptions) throws -> Image
    private let queue: OperationQueue = {
        let queue = OperationQueue()
        queue.name = "sdgallery.manager.files"
        queue.maxConcurrentOperationCount = LocalFileLoader.maxConcurrentLoads
        queue.qualityOfService = .userInitiated
        return queue
    }()

    init(decode: @escaping @Sendable (Data, DecodeOptions) throws -> Image) { self.decode = decode }

    /// Reads and decodes `url` for `options`. `readingOnlyWhatIsNeeded` (`.stopWhenSufficient` with a
    /// target size): the file is read from its start only until its image is final at that size
    /// (`ImageCoders.decodeFile`: a JPEG's EXIF thumbnail in its first 64 KB, a progressive JPEG's
    /// scans for its scale), through the library decoders rather than `decode`.
    func load(_ url: URL, options: DecodeOptions, readingOnlyWhatIsNeeded: Bool = false,
              done: @escaping @Sendable (Result<Image, ImageLoadError>) -> Void) {
        queue.addOperation { [decode] in
            let path = url.path
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else {
                let exists = FileManager.default.fileExists(atPath: path)
                done(.failure(.file(url, reason: exists ? "cannot read file" : "file not found")))
                return
            }
            if attributes[.type] as? FileAttributeType == .typeDirectory {
                done(.failure(.file(url, reason: "is a directory")))
                return
            }
            let size = attributes[.size] as? Int ?? 0
            guard size <= Self.maxBytes else {
                done(.failure(.file(url, reason: "file too large (\(size >> 20) MB)")))
                return
            }
            do {
                if readingOnlyWhatIsNeeded, options.targetSize != nil {
                    let handle = try FileHandle(forReadingFrom: url)
                    defer { try? handle.close() }
                    done(.success(try ImageCoders.decodeFile(handle, size: size, options: options).image))
                    return
                }
                let data = try Data(contentsOf: url)
                done(.success(try decode(data, options)))
            } catch let error as DecodeError {
                done(.failure(.download(.decodeFailed(url: url, reason: error))))
            } catch {
                done(.failure(.file(url, reason: "cannot read file")))
            }
        }
    }
}
