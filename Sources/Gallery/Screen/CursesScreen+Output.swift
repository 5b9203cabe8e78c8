import CNcurses

/// The screen's output queue (`TerminalOutput`): presenting never waits for the terminal.
extension CursesScreen {
    /// From now on frames go through a `TerminalOutput`, so presenting never waits for the terminal;
    /// its drain thread wakes the loop through `wakeDescriptor`. Without one (fd 1 is no named
    /// terminal) writes stay direct.
    public func queueOutput(wakeDescriptor: Int32) {
        self.wakeDescriptor = wakeDescriptor
        sdg_curses_flush()
        if output == nil, isOpen { output = TerminalOutput(wakeDescriptor: wakeDescriptor) }
    }

    public var outputBacklog: Int { output?.backlog ?? 0 }
    public var outputDescriptor: Int32? { output?.terminal }
    public func flushOutput() { output?.flush() }
    public var outputWritten: Bool { output?.isWritten ?? true }

    /// Sends everything queued and writes to the terminal directly again (before curses leaves).
    func finishOutput() {
        sdg_curses_flush()
        output?.finish()
        output = nil
    }
}
