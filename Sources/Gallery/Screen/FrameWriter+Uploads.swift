import TerminalGraphics

/// Transmit-once for protocols whose terminal keeps image data under an id (kitty): the frame writer
/// sends an `ImageUpload` only before the first placement that needs it, frees data the painter
/// dropped, and clears everything on close.
extension FrameWriter {
    /// Frees the data of `ids` the terminal holds (`d=I`, which also removes their placements); those
    /// placements count as not shown, so the next plan places (and uploads) them again, and the next
    /// plan clears the cells of placeholder pictures among them. Call before `plan`; write the bytes
    /// in the same frame, before its erase bytes.
    ///
    /// kitty (0.26) frees with any uppercase delete every image that has no placement at that moment,
    /// not only the ones named: a later placement of such an image is refused (`ENOENT`) and its
    /// cell stays blank. So every image not placed now is forgotten too, and uploaded again before
    /// its next placement.
    public mutating func release(_ ids: [UInt32]) -> [UInt8] {
        guard !ids.isEmpty else { return [] }
        let freed = Set(ids.filter { uploads.transmitted.contains($0) })
        guard !freed.isEmpty else { return [] }
        let gone = shown.filter { $0.image.upload.map { freed.contains($0.id) } ?? false }
        // Unicode placeholders are text: the delete leaves them on screen (showing whatever image
        // gets that id next), so their cells are cleared with the frame's other erasures.
        releasedText += gone.filter { !$0.image.rows.isEmpty }.map(\.rect)
        shown.removeAll { gone.contains($0) }
        let bytes = uploads.free(ids)
        uploads.forget(keeping: Set(shown.compactMap { $0.image.upload?.id }))
        return bytes
    }

    /// What a planned frame writes after its text: the uploads the terminal does not hold yet, then
    /// the placements (`FrameWriter.bytes(for:)`; the erase bytes went out before the text, with
    /// `clearing`).
    public mutating func bytes(for plan: Plan) -> [UInt8] {
        uploads(for: plan) + Self.bytes(for: plan.emit)
    }

    /// The transmissions a planned frame needs (the image data the terminal does not hold yet), each
    /// once. They change nothing on screen, so the screen may send them before the frame's
    /// synchronized update and keep that update small (kitty ends a pending update on its own when
    /// it grows too large or slow, and a page of uploads was both).
    public mutating func uploads(for plan: Plan) -> [UInt8] {
        var out: [UInt8] = []
        for placement in plan.emit {
            guard let upload = placement.image.upload else { continue }
            out += uploads.upload(upload)
        }
        return out
    }

    /// Plays or stops the animations the terminal holds (kitty plays them itself), when that
    /// changes; an animation uploaded later starts as the others are.
    public mutating func setAnimationsPlay(_ play: Bool) -> [UInt8] { uploads.setAnimationsPlay(play) }

    /// Bytes that leave nothing of ours on screen when the program quits (kitty: every placement and
    /// image deleted by id, then `a=d,d=A`, when anything was uploaded); the writer forgets everything.
    public mutating func closingBytes() -> [UInt8] {
        // Each placement and image by id first (kitty through tmux did not act on `d=A` alone here),
        // then everything.
        var out = shown.flatMap(\.image.erase)
        out += uploads.free(uploads.transmitted.sorted())
        shown = []
        return out + uploads.close()
    }
}
