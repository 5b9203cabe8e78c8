import Foundation

/// The entries a contact sheet writes, read as they are needed: from an array, from a list's index
/// one line at a time, or from a stream (standard input, a FIFO) as its lines arrive. A sheet holds
/// only the entries between the row it writes and its look-ahead, so `--print` of twelve million
/// lines on standard input no longer reads (and parses) them all before its first row (1.7 GB after
/// 15 s, 5 GB at 54 s); the sheet starts with its first row. Used by the sheet's own thread only.
///
/// ```swift
/// let entries = SheetEntries(stream: 0, baseDirectory: cwd) { diagnostic in warn(diagnostic.description) }
/// sheet.render(entries, load: load, write: write)
/// ```
final class SheetEntries {
    /// The next entry; `wait` false: only one that is there without waiting (nil: none yet).
    private var next: (_ wait: Bool) -> URLListEntry?
    private var window: [Int: URLListEntry] = [:]
    private var taken = 0
    private var ended = false

    /// Every entry of `entries`.
    convenience init(_ entries: [URLListEntry]) {
        var iterator = entries.makeIterator()
        self.init { _ in iterator.next() }
    }

    /// The entries of `index` in order, parsed one line at a time; a bad line goes to `reject`.
    convenience init(index: URLListIndex, reject: @escaping (URLListDiagnostic) -> Void) {
        var position = 0
        self.init { _ in
            while position < index.count {
                defer { position += 1 }
                switch index.entry(at: position) {
                case .success(let entry): return entry
                case .failure(let diagnostic): reject(diagnostic)
                }
            }
            return nil
        }
    }

    /// The entries of the list read from `descriptor` (blocking reads, 64 KB at a time) as its lines
    /// arrive, relative paths against `baseDirectory`; a bad line goes to `reject`. A line over
    /// `URLList.maximumLineLength` keeps only its first bytes (its diagnostic needs no more).
    convenience init(stream descriptor: Int32, baseDirectory: URL, home: String? = ProcessInfo.processInfo.environment["HOME"],
                     reject: @escaping (URLListDiagnostic) -> Void) {
        var pending: [UInt8] = []
        var overlong = 0  // bytes of the current line dropped past the cap
        var number = 0
        var parsed: [URLListEntry] = []
        var head = 0  // the next of `parsed` to hand out
        var atEnd = false
        var chunk = [UInt8](repeating: 0, count: 65536)
        func take(_ line: ArraySlice<UInt8>, length: Int) {
            number += 1
            let text = Substring(String(decoding: line, as: UTF8.self))
            if length > URLList.maximumLineLength + 1 {
                reject(URLListDiagnostic(line: number, problem: .lineTooLong(length), text: text.prefix(80)))
                return
            }
            switch URLList.parseLine(text, number: number, baseDirectory: baseDirectory, home: home) {
            case .success(let entry)?: parsed.append(entry)
            case .failure(let diagnostic)?: reject(diagnostic)
            case nil: break
            }
        }
        self.init { wait in
            if head == parsed.count {
                parsed.removeAll(keepingCapacity: true)
                head = 0
            }
            while head == parsed.count && !atEnd {
                if !wait {
                    var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                    guard poll(&ready, 1, 0) > 0 else { return nil }
                }
                let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else {
                    atEnd = true
                    if !pending.isEmpty || overlong > 0 { take(pending[...], length: pending.count + overlong) }
                    pending = []
                    break
                }
                var start = 0
                for newline in chunk[0..<count].indices where chunk[newline] == 0x0A {
                    pending += chunk[start..<newline]
                    take(pending[...], length: pending.count + overlong)
                    pending.removeAll(keepingCapacity: true)
                    overlong = 0
                    start = newline + 1
                }
                let rest = chunk[start..<count]
                let room = max(0, URLList.maximumLineLength + 2 - pending.count)
                pending += rest.prefix(room)
                overlong += max(0, rest.count - room)
            }
            guard head < parsed.count else { return nil }
            head += 1
            return parsed[head - 1]
        }
    }

    /// Entries from `next` (nil: no more, or with `wait` false none yet).
    init(_ next: @escaping (_ wait: Bool) -> URLListEntry?) { self.next = next }

    /// How many entries were read so far.
    var count: Int { taken }

    /// Entry `index` (read on demand, in order), or nil past the end. `wait` false: nil also when
    /// a stream has not delivered it yet (the look-ahead never waits for lines to come).
    func entry(at index: Int, wait: Bool = true) -> URLListEntry? {
        while taken <= index && !ended {
            if let entry = next(wait) {
                window[taken] = entry
                taken += 1
            } else if wait {
                ended = true
            } else {
                return nil
            }
        }
        return window[index]
    }

    /// Forgets the entries before `index` (the rows already written).
    func release(below index: Int) {
        for key in window.keys where key < index { window[key] = nil }
    }
}
