import TerminalGraphics

/// Transmit-once for protocols whose terminal keeps image data under an id (kitty): the frame writer
/// sends an `ImageUpload` only before the first placement that needs it, frees data the painter
/// dropped, and clears everything on close.
extension FrameWriter {
    /// Frees the data of `ids` the terminal holds (`d=I`, which also removes their placements); those
    /// placements count as not shown, so the next plan places (and uploads) them again. Call before
    /// `plan`; write the bytes in the same frame.
    public mutating func release(_ ids: [UInt32]) -> [UInt8] {
        guard !ids.isEmpty else { return [] }
        let freed = Set(ids.filter { uploads.transmitted.contains($0) })
        guard !freed.isEmpty else { return [] }
        shown.removeAll { $0.image.upload.map { freed.contains($0.id) } ?? false }
        return uploads.free(ids)
    }

    /// What a planned frame writes after its text: the uploads the terminal does not hold yet, then
    /// the placements (`FrameWriter.bytes(for:)`; the erase bytes went out before the text, with
    /// `clearing`).
    public mutating func bytes(for plan: Plan) -> [UInt8] {
        var out: [UInt8] = []
        for placement in plan.emit {
            guard let upload = placement.image.upload else { continue }
            uploads.tmuxPassthrough = upload.tmuxPassthrough
            out += uploads.upload(id: upload.id, bytes: upload.bytes)
        }
        return out + Self.bytes(for: plan.emit)
    }

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
