import Foundation
import SafeFiles
import ImageCodecs
import TerminalGraphics

/// Runs the product from parsed options: the interactive gallery, the contact sheet (`--print` or a
/// non-tty stdout), the probe or the demo. Returns the exit status (0 success, 1 runtime error;
/// argument errors, status 2, are the command parser's).
public enum GalleryRunner {
    /// Runs and returns the exit status. `components` supplies the image source, painter, probe and
    /// demo; `stderr` receives messages (diagnostics, errors, stats).
    public static func run(_ options: GalleryOptions, components: GalleryComponents? = nil,
                           stdout: (String) -> Void = { FileHandle.standardOutput.write(Data($0.utf8)) },
                           stderr: (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }) -> Int32 {
        HeapTuning.apply()
        if let mb = options.decodeMemoryMB { DecodeMemory.shared.limit = mb << 20 }
        // libcurl opens the netrc file on the network thread, blocking there on a FIFO: only a
        // regular file is taken, said at once.
        if let netrc = options.netrcFile, case .failure(let refusal) = SafeFile.openForReading(netrc).map({ close($0.descriptor) }) {
            stderr("sdgallery: --netrc-file '\(TerminalText.sanitize(netrc))': \(refusal.reason)\n")
            return 1
        }
        let components = components ?? .live(options)
        let environment = ProcessInfo.processInfo.environment
        if options.probe {
            stdout(components.probeReport(options) + "\n")
            return 0
        }
        if options.clearCache {
            if let problem = components.clearCache(options) { stderr("sdgallery: --clear-cache: \(problem)\n") }
            if options.inputs.isEmpty && !options.demo { return 0 }
        }
        let dumb = (environment["TERM"] ?? "dumb").isEmpty || environment["TERM"] == "dumb"
        // A list arriving on a pipe into the gallery: shown as its lines arrive (the pipe moves to
        // another descriptor, the keys come from the terminal).
        if options.inputs == ["-"], !options.demo, !options.printSheet, !dumb, TerminalDevice.isTerminal(1), !TerminalDevice.isTerminal(0) {
            let pipe = dup(0)
            guard pipe >= 0, TerminalDevice.takeKeysFromTerminal() else {
                stderr("sdgallery: no terminal to read keys from (list came through stdin)\n")
                return 1
            }
            let empty = URLListIndex(bytes: Data(), baseDirectory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
            return interactive(options, index: empty, badLines: 0, stream: StreamingList(descriptor: pipe), components: components, stderr: stderr)
        }
        // A list arriving through a FIFO (`sdgallery <(command)`, a named pipe): shown as its lines
        // arrive, as a pipe on standard input is; opened without blocking (`SafeFile.openStream`).
        if options.inputs.count == 1, let only = options.inputs.first, only != "-", !options.demo, !options.printSheet, !dumb,
           TerminalDevice.isTerminal(1), TerminalDevice.isTerminal(0), SafeFile.kind(of: only) == .fifo {
            switch SafeFile.openStream(only) {
            case .success(let stream):
                // Relative paths resolve against the working directory, as for standard input
                // (`<(command)` is /dev/fd/63).
                let empty = URLListIndex(bytes: Data(), baseDirectory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
                return interactive(options, index: empty, badLines: 0, stream: StreamingList(descriptor: stream.descriptor),
                                   components: components, stderr: stderr)
            case .failure(let refusal):
                stderr("sdgallery: cannot read '\(TerminalText.sanitize(only))': \(refusal.reason)\n")
                return 1
            }
        }
        // The one-shot sheet (`--print`, or standard output not a terminal curses can drive) of a list
        // on standard input: written as its lines arrive, never read whole first.
        let sheet = options.printSheet || !TerminalDevice.isTerminal(1) || dumb
        if sheet, options.inputs == ["-"], !options.demo {
            let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
            return printSheet(options, knownCount: nil, components: components, terminal: TerminalDevice.isTerminal(1) && !dumb,
                              dumb: dumb, stdout: stdout, stderr: stderr) { SheetEntries(stream: 0, baseDirectory: cwd, reject: $0) }
        }
        let index: URLListIndex
        if options.demo {
            // `components.demoList` starts `DemoServer` over `assets/demo` at `options.demoRate`
            // and returns its list (http URLs on 127.0.0.1).
            guard let demo = components.demoList(options) else {
                stderr("sdgallery: the demo images (assets/demo) were not found\n")
                return 1
            }
            index = URLListIndex(entries: demo.entries)
        } else if !options.inputs.isEmpty {
            do {
                index = try URLListIndex.load(arguments: options.inputs, recursive: options.recursive) { stderr("sdgallery: \($0)\n") }
            } catch {
                stderr("sdgallery: \(error.description)\n")
                return 1
            }
        } else {
            stderr("sdgallery: no list given\n")
            return 1
        }
        guard index.count > 0 else {
            stderr("sdgallery: no usable entries in the list\n")
            return 1
        }
        // Not a terminal, or one curses cannot drive (TERM=dumb or unset): the one-shot sheet, its
        // lines parsed as the sheet reaches them (bad ones reported then).
        if sheet {
            return printSheet(options, knownCount: index.count, components: components, terminal: TerminalDevice.isTerminal(1) && !dumb,
                              dumb: dumb, stdout: stdout, stderr: stderr) { SheetEntries(index: index, reject: $0) }
        }
        // Small lists are checked whole before the first frame, as they always were; in a large one
        // a bad line is reported in its own cell when it comes on screen (nothing parses every line).
        let checked = index.count <= eagerCheckLimit ? index.parsedList : nil
        if let diagnostics = checked?.diagnostics { report(diagnostics, stderr: stderr) }
        if let checked, checked.entries.isEmpty {
            stderr("sdgallery: no usable entries in the list\n")
            return 1
        }
        if options.inputs.contains("-") && !TerminalDevice.isTerminal(0) && !TerminalDevice.takeKeysFromTerminal() {
            stderr("sdgallery: no terminal to read keys from (list came through stdin)\n")
            return 1
        }
        return interactive(options, index: index, badLines: checked?.diagnostics.count ?? 0, components: components, stderr: stderr)
    }

    /// Lists with at most this many indexed lines are parsed whole before the first frame, so their
    /// bad lines are reported up front (a few milliseconds); larger ones report bad lines in their cells.
    static let eagerCheckLimit = 20_000

    /// Prints the first 20 diagnostics and how many more there are.
    static func report(_ diagnostics: [URLListDiagnostic], stderr: (String) -> Void) {
        for diagnostic in diagnostics.prefix(20) { stderr("sdgallery: \(diagnostic.description)\n") }
        if diagnostics.count > 20 { stderr("sdgallery: … and \(diagnostics.count - 20) more bad lines\n") }
    }

    static func interactive(_ options: GalleryOptions, index: URLListIndex, badLines: Int, stream: StreamingList? = nil,
                            components: GalleryComponents, stderr: (String) -> Void) -> Int32 {
        // Ask the terminal before curses owns it: replies would otherwise arrive as keys.
        let profile = components.profile(options, .gallery)
        let screen: CursesScreen
        do {
            screen = try CursesScreen(profile: profile)
        } catch {
            stderr("sdgallery: \(error.description)\n")
            return 1
        }
        let inbox: UIInbox<GalleryEvent>
        do {
            inbox = try UIInbox<GalleryEvent>()
        } catch {
            screen.close()
            stderr("sdgallery: \(error.description)\n")
            return 1
        }
        screen.installSignalHandlers(wakeDescriptor: inbox.wakeWriteDescriptor)
        screen.queueOutput(wakeDescriptor: inbox.wakeWriteDescriptor)
        var model = GalleryModel(items: GalleryItems(index: index), terminal: screen.size, cellPixels: screen.cellPixels,
                                 mode: options.viewMode, columnsOverride: options.columns, imageLimit: profile.strategy.imageLimit)
        model.prefetchScreens = 1
        model.animatesCells = options.animate.cellsPlay
        let painter = components.makePainter(options, profile)
        model.samplesPerCell = painter.samplesPerCell
        guard let app = try? GalleryApp(model: model, screen: screen, source: components.makeSource(options, inbox),
                                        painter: painter, theme: screen.hasColors ? .colour(on: profile.background) : .monochrome,
                                        inbox: inbox) else {
            screen.close()
            return 1
        }
        // Where text on an image's rows makes it be sent again (sixel), loading cells keep those rows quiet.
        app.composer.quietImageRows = !profile.strategy.textOverwritesOnlyItsCells
        // Images in the terminal's own record (sixel), which a desktop switch (unmap, map) can lose in
        // part: the window gaining focus repaints everything.
        if profile.strategy.repaintsOnFocus {
            screen.reportFocus()
            app.settings.repaintOnFocus = true
        } else if options.animate.cellsPlay {
            // A window without focus holds its animations: nobody watches them.
            screen.reportFocus()
        }
        if badLines > 0 {
            app.status.message = "\(badLines) bad line\(badLines == 1 ? "" : "s") in the list"
        }
        if let limitation = profile.limitation {
            // The terminal (tmux) forced a lesser renderer than the outer terminal could show: say why, once.
            app.status.message = limitation
        }
        if let tmux = profile.strategy.tmuxImages, model.layout.cappedByImageLimit {
            // tmux keeps only so many images: the grid holds fewer cells than the screen could.
            app.status.message = tmux.note
        }
        if let note = components.startupNote(options) { app.status.message = note }
        app.settings.statusRefresh = components.statusRefresh
        app.eventLog = EventLog.fromEnvironment()
        app.settings.saveOriginal = components.saveOriginal
        app.pictures.animations.bytesPerSecond = options.animate.bytesPerSecond
        if let stream {
            app.status.readingInput = true
            stream.start(lines: { inbox.post(.moreItems($0)) }, ended: { inbox.post(.inputEnded) })
        }
        let started = GalleryApp.now()
        app.run()
        components.finishWrites()
        if options.stats {
            stderr(([GalleryStats(app: app, started: started).report] + components.statsLines()).joined(separator: "\n") + "\n")
        }
        return 0
    }

    /// The contact sheet with the gallery's choices: in a terminal the probe picks the renderer
    /// (sixel, kitty, half blocks inside tmux), colour depth and cell size; piped, text (half blocks,
    /// plain captions for TERM=dumb) unless `--renderer` or `--colors` says otherwise. Options that
    /// cannot apply to a sheet get a one-line warning.
    /// A list's bad lines, reported as a sheet reaches them: the first 20 at once, how many more at
    /// the end (`report`'s rule, kept while the lines stream by).
    final class BadLines {
        private let stderr: (String) -> Void
        private var seen = 0
        init(_ stderr: @escaping (String) -> Void) { self.stderr = stderr }
        func note(_ diagnostic: URLListDiagnostic) {
            seen += 1
            if seen <= 20 { stderr("sdgallery: \(diagnostic.description)\n") }
        }
        func finish() { if seen > 20 { stderr("sdgallery: … and \(seen - 20) more bad lines\n") } }
    }

    /// The contact sheet of the entries `makeEntries` reads (given where to report bad lines);
    /// `knownCount` lines when the list's length is known.
    static func printSheet(_ options: GalleryOptions, knownCount: Int?, components: GalleryComponents, terminal: Bool, dumb: Bool,
                           stdout: (String) -> Void, stderr: (String) -> Void,
                           entries makeEntries: (@escaping (URLListDiagnostic) -> Void) -> SheetEntries) -> Int32 {
        withoutActuallyEscaping(stderr) { stderr in
            let badLines = BadLines(stderr)
            return printSheet(options, entries: makeEntries(badLines.note), knownCount: knownCount, badLines: badLines,
                              components: components, terminal: terminal, dumb: dumb, stdout: stdout, stderr: stderr)
        }
    }

    private static func printSheet(_ options: GalleryOptions, entries: SheetEntries, knownCount: Int?, badLines: BadLines,
                                   components: GalleryComponents, terminal: Bool, dumb: Bool, stdout: (String) -> Void,
                                   stderr: (String) -> Void) -> Int32 {
        if options.viewMode == .list { stderr("sdgallery: --list does not apply to --print (the sheet is a grid)\n") }
        if options.saveDirectory != nil { stderr("sdgallery: --save-dir does not apply to --print (it is where the gallery's s key saves)\n") }
        if options.animate != .on { stderr("sdgallery: --animate does not apply to --print (a sheet is written once: it shows first frames)\n") }
        // The profile holds the sheet's rules: colour or plain (TERM=dumb), text when piped, cell size.
        let profile = components.profile(options, .sheet(terminal: terminal, dumb: dumb))
        let width = profile.window?.cells.columns ?? ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init) ?? 80
        var sheet = ContactSheet(width: width, columns: options.columns, cellPixels: profile.cellPixelSize, depth: profile.colorDepth)
        sheet.painter = components.makePainter(options, profile)
        if let limitation = profile.limitation { stderr("sdgallery: \(limitation)\n") }
        if let tmux = profile.strategy.tmuxImages {
            // A sheet is written once: tmux keeps its last images, and draws only those when it
            // redraws the pane. So each row's images go as one (xterm's default largest sixel when
            // the terminal did not say), and the note is for a screen that still shows more.
            sheet.rowImageWidth = profile.renderer.graphicsLimit?.width ?? 1000
            let screenRows = profile.window?.cells.rows ?? 24
            if sheet.bitmapsPerScreen(screenRows: screenRows, entries: knownCount ?? Int(Int32.max)) > tmux.limit {
                stderr("sdgallery: \(tmux.sheetNote)\n")
            }
        }
        let started = GalleryApp.now()
        let failures = sheet.render(entries, load: components.loadForPrint, write: stdout)
        components.finishWrites()
        badLines.finish()
        guard entries.count > 0 else {
            stderr("sdgallery: no usable entries in the list\n")
            return 1
        }
        if let note = components.diskNote() { stderr("sdgallery: \(note)\n") }
        if options.stats {
            let seconds = GalleryApp.now() - started
            let summary = "sheet: \(entries.count) entries, \(failures) failed, \(String(format: "%.2f", seconds)) s"
            stderr(([summary] + components.statsLines()).joined(separator: "\n") + "\n")
        }
        return 0
    }
}
