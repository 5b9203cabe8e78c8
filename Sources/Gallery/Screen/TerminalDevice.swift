import CNcurses

/// Facts about the process's terminal devices that the runner needs before (or without) a curses
/// screen. Lives here because this folder is the only one that imports curses.
public enum TerminalDevice {
    /// Whether `descriptor` is a terminal.
    public static func isTerminal(_ descriptor: Int32) -> Bool { sdg_curses_isatty(descriptor) != 0 }

    /// Makes /dev/tty the standard input (the list came through stdin, the keys come from the
    /// terminal); false when there is no terminal to open.
    public static func takeKeysFromTerminal() -> Bool { sdg_curses_stdin_from_tty() == 0 }

    /// The ncurses version string ("ncurses 6.4.20221231").
    public static var cursesVersion: String { String(cString: sdg_curses_version()) }
}
