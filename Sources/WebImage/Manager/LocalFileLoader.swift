import Foundation
import ImageCodecs
import SafeFiles

/// Loads `file:` URLs: reads and decodes off the caller's thread, within a size cap, a few at a
/// time (one per core, at least two: a file that inflates to a large canvas holds its memory while it
/// decodes, so their number is bounded as network loads are). The one place that decides whether a
/// local file may be read: a load's decode and `s`'s copy (`readOriginal`) pass the same checks.
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
            let file: OpenedFile
            switch Self.open(url) {
            case .success(let opened): file = opened
            case .failure(let error): return done(.failure(error))
            }
            let handle = FileHandle(fileDescriptor: file.descriptor, closeOnDealloc: true)
            defer { try? handle.close() }
            do {
                if readingOnlyWhatIsNeeded, options.targetSize != nil {
                    done(.success(try ImageCoders.decodeFile(handle, size: file.size, options: options).image))
                    return
                }
                let data: Data
                switch Self.read(file, of: url) {
                case .success(let read): data = read
                case .failure(let error): return done(.failure(error))
                }
                done(.success(try decode(data, options)))
            } catch let error as DecodeError {
                done(.failure(.download(.decodeFailed(url: url, reason: error))))
            } catch {
                done(.failure(.file(url, reason: "cannot read file")))
            }
        }
    }

    /// Reads the whole of `url`, undecoded, with the checks of a load (what `s` copies): a regular
    /// file within the size cap, in a format this build decodes (a list naming
    /// `/proc/self/environ` saves nothing). Its bytes and permission bits.
    func readOriginal(_ url: URL, done: @escaping @Sendable (Result<(data: Data, mode: mode_t), ImageLoadError>) -> Void) {
        queue.addOperation {
            let file: OpenedFile
            switch Self.open(url) {
            case .success(let opened): file = opened
            case .failure(let error): return done(.failure(error))
            }
            defer { close(file.descriptor) }
            done(Self.read(file, of: url).flatMap { data in
                if let undecodable = ImageFormat.sniff(data).undecodableError {
                    return .failure(.download(.decodeFailed(url: url, reason: undecodable)))
                }
                return .success((data, file.mode))
            })
        }
    }

    /// Opens `url`'s file: only a regular file, opened without blocking (a FIFO, /dev/tty or
    /// /dev/stdin in a list made this queue read the terminal, swallowing keys: `SafeFile`), of at
    /// most `maxBytes` by its size.
    private static func open(_ url: URL) -> Result<OpenedFile, ImageLoadError> {
        switch SafeFile.openForReading(url.path) {
        case .success(let file):
            guard file.size <= maxBytes else {
                close(file.descriptor)
                return .failure(.file(url, reason: "file too large (\(file.size >> 20) MB)"))
            }
            return .success(file)
        case .failure(let refusal):
            return .failure(.file(url, reason: refusal.reason == FileRefusal.system(ENOENT).reason ? "file not found" : refusal.reason))
        }
    }

    /// The rest of `file`, at most `maxBytes` (counted while reading: `/proc` files say 0).
    private static func read(_ file: OpenedFile, of url: URL) -> Result<Data, ImageLoadError> {
        SafeFile.read(file.descriptor, limit: maxBytes).mapError { .file(url, reason: $0.reason) }
    }
}
