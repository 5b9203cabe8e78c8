import Foundation
import ImageCodecs
import WebImage

/// `s`: the selected image's original bytes, saved into a directory. The manager gives the original
/// (`ImageManager.loadOriginal`): for a URL the disk cache's entry when it holds one, else a download,
/// which the cache then keeps; for a local file its bytes, read by the local-file loader with the checks
/// of a load (a regular file, within the size cap, an image by its first bytes: a list naming
/// `/proc/self/environ` saves nothing), whose refusal is the status line's. Never overwrites:
/// `name.jpg` is taken, so `name (1).jpg`, `name (2).jpg`, … (created with `O_EXCL`), on a background
/// queue; `done` gets the one line for the status bar. A local file's copy is owner-only (0600) when
/// the file is not readable by everyone.
struct OriginalSaver: Sendable {
    let manager: ImageManager
    let directory: URL
    private static let queue = DispatchQueue(label: "sdgallery.save", qos: .userInitiated)

    func save(_ location: ImageLocation, done: @escaping @Sendable (String) -> Void) {
        manager.loadOriginal(of: location.url) { result in
            Self.queue.async {
                switch (result, location) {
                case (.success(let original), _):
                    done(write(original.data, name: location.fileName, mode: Self.copyMode(original.filePermissions)))
                case (.failure(let error), .file(let path)):
                    done("cannot save \(TerminalText.sanitize(path)): \(error.shortDescription)")
                case (.failure(let error), .remote):
                    done("cannot save: \(error.shortDescription)")
                }
            }
        }
    }

    /// The copy's mode: 0644 when everyone may read the file (and for a URL's original), else 0600.
    static func copyMode(_ permissions: mode_t?) -> mode_t {
        guard let permissions else { return 0o644 }
        return permissions & S_IROTH != 0 ? 0o644 : 0o600
    }

    /// Writes `data` under a free name made from `name`, created with `mode` (before the umask);
    /// the status line.
    func write(_ data: Data, name: String, mode: mode_t = 0o644) -> String {
        let (stem, ext) = Self.fileSystemName(name)
        for attempt in 0..<1000 {
            let candidate = attempt == 0 ? stem + ext : "\(stem) (\(attempt))\(ext)"
            let path = directory.appendingPathComponent(candidate).path
            let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
            if fd < 0 {
                if errno == EEXIST { continue }
                return "cannot save to \(TerminalText.sanitize(directory.path)): \(String(cString: strerror(errno)))"
            }
            let written = data.withUnsafeBytes { buffer -> Bool in
                var offset = 0
                while offset < buffer.count {
                    let n = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                    if n < 0 { if errno == EINTR { continue }; return false }
                    offset += n
                }
                return true
            }
            let failure = written ? nil : String(cString: strerror(errno))
            close(fd)
            if let failure {
                unlink(path)
                return "cannot save \(TerminalText.sanitize(candidate)): \(failure)"
            }
            return "saved \(TerminalText.sanitize(candidate)) in \(TerminalText.sanitize(directory.path))"
        }
        return "cannot save: 1000 files named \(TerminalText.sanitize(stem)) already"
    }

    /// A safe file name from an image's last path component: no `/`, no control characters, no
    /// leading dot, at most 200 bytes; "image" when nothing is left. Split into stem and extension.
    static func fileSystemName(_ name: String) -> (stem: String, ext: String) {
        var clean = String(name.unicodeScalars.filter { $0.value >= 0x20 && $0 != "/" && $0 != "\u{7F}" }.map(Character.init))
        while clean.hasPrefix(".") { clean.removeFirst() }
        while clean.utf8.count > 200 { clean.removeLast() }
        if clean.isEmpty { clean = "image" }
        guard let dot = clean.lastIndex(of: "."), dot != clean.startIndex else { return (clean, "") }
        return (String(clean[..<dot]), String(clean[dot...]))
    }
}
