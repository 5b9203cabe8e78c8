import Foundation

/// A terminfo entry for the user's terminal without its scroll capabilities (`ind`, `ri`, `indn`,
/// `rin`, `csr`, `il`, `dl`), compiled with `tic` into a private directory for the moment curses
/// opens. ncurses' update scrolls lines on its own when it guesses that text moved, and the terminal
/// moves the images on them too, behind the frame writer's back (and ncurses' guess cannot be told
/// apart from a rewrite afterwards). Without those capabilities it only rewrites text; the program
/// scrolls the terminal itself, when it knows the grid scrolled (`FrameScroll`).
struct NoScrollTerminfo {
    /// The entry's name.
    static let name = "sdgallery-noscroll"
    /// The directory to give curses as `TERMINFO`.
    let directory: URL

    /// Compiles the entry for `term`; nil when that is not possible (no tic, an unknown or odd TERM).
    static func make(for term: String? = ProcessInfo.processInfo.environment["TERM"]) -> NoScrollTerminfo? {
        guard let term, !term.isEmpty, term.count <= 64,
              term.unicodeScalars.allSatisfy({ CharacterSet.alphanumerics.contains($0) || "._+-".unicodeScalars.contains($0) }),
              let tic = ["/usr/bin/tic", "/bin/tic"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else { return nil }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sdgallery-terminfo-\(getpid())-\(UUID().uuidString.prefix(8))")
        let entry = NoScrollTerminfo(directory: directory)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let source = directory.appendingPathComponent("entry.src")
            try "\(name)|\(term) without scrolling,\n\tind@, ri@, indn@, rin@, csr@, il1@, il@, dl1@, dl@,\n\tuse=\(term),\n"
                .write(to: source, atomically: true, encoding: .utf8)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: tic)
            process.arguments = ["-x", "-o", directory.path, source.path]
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { entry.remove(); return nil }
            return entry
        } catch {
            entry.remove()
            return nil
        }
    }

    /// Runs `open` with `TERMINFO` pointing at the entry (the previous value restored after).
    func with<T>(_ open: () -> T) -> T {
        let previous = getenv("TERMINFO").map { String(cString: $0) }
        setenv("TERMINFO", directory.path, 1)
        defer { if let previous { setenv("TERMINFO", previous, 1) } else { unsetenv("TERMINFO") } }
        return open()
    }

    /// Deletes the directory (curses has read the entry by then).
    func remove() { try? FileManager.default.removeItem(at: directory) }
}
