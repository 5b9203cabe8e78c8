import Foundation
import ImageCodecs
import SafeFiles

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
            // Only a regular file, opened without blocking (a FIFO, /dev/tty or /dev/stdin in a list
            // made this queue read the terminal, swallowing keys): `SafeFile`.
            let file: OpenedFile
            switch SafeFile.openForReading(url.path) {
            case .success(let opened): file = opened
            case .failure(let refusal):
                done(.failure(.file(url, reason: refusal.reason == FileRefusal.system(ENOENT).reason ? "file not found" : refusal.reason)))
                return
            }
            let handle = FileHandle(fileDescriptor: file.descriptor, closeOnDealloc: true)
            defer { try? handle.close() }
            guard file.size <= Self.maxBytes else {
                done(.failure(.file(url, reason: "file too large (\(file.size >> 20) MB)")))
                return
            }
            do {
                if readingOnlyWhatIsNeeded, options.targetSize != nil {
                    done(.success(try ImageCoders.decodeFile(handle, size: file.size, options: options).image))
                    return
                }
                let data: Data
                switch SafeFile.read(file.descriptor, limit: Self.maxBytes) {
                case .success(let read): data = read
                case .failure(let refusal):
                    done(.failure(.file(url, reason: refusal.reason)))
                    return
                }
                done(.success(try decode(data, options)))
            } catch let error as DecodeError {
                done(.failure(.download(.decodeFailed(url: url, reason: error))))
            } catch {
                done(.failure(.file(url, reason: "cannot read file")))
            }
        }
    }
}
