/// The frame loop's progress lines in the event log (`SDGALLERY_EVENT_LOG`), which tests wait on:
/// "frame N written" once the terminal has the frame, "waiting …" when what is pending changes,
/// "settled …" once per new frame or key when nothing is.
struct SettleReporter {
    /// Where the lines go; nil: nowhere.
    var log: EventLog?
    private var written = -1
    /// The last frame reported written (-1: none yet).
    var framesWritten: Int { written }
    private var waiting: [String] = []
    private var settledFrame = -1
    private var settledKeys = -1

    /// A reporter writing to `log`.
    init(log: EventLog? = nil) { self.log = log }

    /// After a loop step: `frames` presented and `keys` read so far, `pending` the kinds of work
    /// still running (`GalleryApp.pendingWork`), `outputWritten` whether the terminal has every byte.
    mutating func report(frames: Int, keys: Int, pending: [String], outputWritten: Bool) {
        guard let log, outputWritten else { return }
        if frames != written {
            written = frames
            log.write("frame \(frames) written")
        }
        if !pending.isEmpty {
            if pending != waiting {
                waiting = pending
                log.write("waiting " + pending.joined(separator: " "))
            }
            settledFrame = -1  // settling again after this is reported, on the same frame too
            return
        }
        waiting = []
        guard settledFrame != frames || settledKeys != keys else { return }
        settledFrame = frames
        settledKeys = keys
        log.write("settled frame=\(frames) keys=\(keys) loads=0 paints=0")
    }
}
