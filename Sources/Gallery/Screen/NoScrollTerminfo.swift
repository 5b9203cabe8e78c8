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
    /// `withoutEraseCharacters`: without `ech` too (`TerminalStrategy.erasesWideCharactersByColumn`).
    static func make(for term: String? = ProcessInfo.processInfo.environment["TERM"], withoutEraseCharacters: Bool = false) -> NoScrollTerminfo? {
        guard let term, !term.isEmpty, term.count <= 64,
              term.unicodeScalars.allSatisfy({ CharacterSet.alphanumerics.contains($0) || "._+-".unicodeScalars.contains($0) }),
              let tic = ["/usr/bin/tic", "/bin/tic"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else { return nil }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sdgallery-terminfo-\(getpid())-\(UUID().uuidString.prefix(8))")
        let entry = NoScrollTerminfo(directory: directory)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let source = directory.appendingPathComponent("entry.src")
            // Nor clearing to the end of a line or screen, nor inserting or deleting characters: curses
            // then writes exactly the cells that changed (and short gaps between them), so the frame
            // writer knows which images text overwrote (`FrameWriter.changedSpans`). Nor background
            // colour erase: with `bce` (xterm's, VTE's and most entries have it) ncurses' updates
            // left cells of half-block images blank until a repaint after paging through the full
            // view (the random-keys reproducer in MoreTerminalsOracleTests; 0 cells off without it).
            try ("\(name)|\(term) without scrolling,\n\tind@, ri@, indn@, rin@, csr@, il1@, il@, dl1@, dl@,\n"
                + "\tel@, el1@, ed@, ich@, ich1@, dch@, dch1@, smir@, rmir@, bce@,\(withoutEraseCharacters ? " ech@," : "")\n\tuse=\(term),\n")
                .write(to: source, atomically: true, encoding: .utf8)
            guard run(tic, ["-x", "-o", directory.path, source.path]) == 0 else { entry.remove(); return nil }
            return entry
        } catch {
            entry.remove()
            return nil
        }
    }

    /// What a child is given of this process's environment: only what `tic` needs to find terminfo
    /// sources (never a password such as `SDGALLERY_PASSWORD`, nor anything else of the user's).
    static let childEnvironmentNames: Set<String> = ["PATH", "HOME", "TERMINFO", "TERMINFO_DIRS", "LANG", "LC_ALL", "LC_CTYPE"]

    /// `NAME=value` strings of `environment` kept for a child.
    static func childEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        environment.filter { childEnvironmentNames.contains($0.key) }.map { "\($0.key)=\($0.value)" }.sorted()
    }

    /// Runs `path` with its output on /dev/null and a minimal environment (`childEnvironment`)
    /// (posix_spawn: Foundation's `Process` leaves state behind that LeakSanitizer reports); its exit
    /// status, -1 when it could not run.
    static func run(_ path: String, _ arguments: [String]) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let envp = childEnvironment().map { strdup($0) } + [nil]
        defer { for pointer in envp { free(pointer) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, path, &actions, nil, argv, envp) == 0 else { return -1 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { return -1 }
        }
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : -1
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
