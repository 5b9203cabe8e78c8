import Foundation
import ImageCodecs
import Zlib

/// The kitty graphics protocol: the image, scaled to fit the cell rectangle's pixel size, is
/// transmitted (`a=t`, data kept by the terminal under one image id per decoded image and size) as
/// raw RGB (`f=24`) when opaque, else raw RGBA (`f=32`, straight alpha: kitty blends it against the
/// real background itself), zlib-compressed (`o=z`), in base64 chunks of at most 4096 bytes
/// (`m=1` … `m=0`, `q=2` on every chunk: kitty reads `q` from the last one), then placed by id over
/// the cell rectangle (`a=p`, `C=1` so the cursor does not move) with one placement id per cell.
/// `RenderedImage.upload` carries the transmission alone: `KittySession` sends it once per id.
///
/// With `placeholders` (kitty ≥ 0.28 inside tmux: `KittyPlaceholders`) the transmission also makes
/// a virtual placement of the covered cells (`a=T,U=1,c=…,r=…`) and the picture is text: one row of
/// placeholder cells per cell row (`RenderedImage.rows`), which the terminal, and tmux, move and
/// erase like any text. Nothing is placed by id and nothing needs deleting when text covers it.
public struct KittyRenderer: AnimationRenderer {
    /// Background for the identity (kitty composites alpha against the real background itself).
    public var background: RGBColor
    /// Whether to wrap every command for tmux passthrough.
    public var tmuxPassthrough: Bool
    /// Whether pictures are Unicode placeholders (text) over a virtual placement.
    public var placeholders = false
    /// Largest base64 payload per chunk (the protocol's limit is 4096).
    public static let chunkSize = 4096

    /// Creates a kitty renderer.
    public init(background: RGBColor = .black, tmuxPassthrough: Bool = false) {
        self.background = background
        self.tmuxPassthrough = tmuxPassthrough
    }

    /// Kind `.kitty` (or `.kittyPlaceholders`) with the passthrough flag.
    public var identity: RendererIdentity {
        RendererIdentity(kind: placeholders ? .kittyPlaceholders : .kitty, background: background, tmuxPassthrough: tmuxPassthrough)
    }

    /// Per-process salt: image ids are process-local counters, so without it a second run (two
    /// `--print` sheets one after the other) would reuse the ids and replace the first run's images.
    static let salt = UInt64.random(in: 1...UInt64.max)

    /// The wire id for an image at a scaled size: a mix of both (and of the process salt), 32 bits,
    /// never 0. An animation the terminal plays has an id of its own (its first frame as a still
    /// does not replace it).
    public static func imageID(for image: Image, size: PixelSize, animated: Bool = false) -> UInt32 {
        var x = (image.id ^ salt ^ (animated ? 0xA5A5_0000_0000_0000 : 0)) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(size.width) << 20 ^ UInt64(size.height)
        x ^= x >> 31
        x = x &* 0xBF58_476D_1CE4_E5B9
        x ^= x >> 29
        let id = UInt32(truncatingIfNeeded: x) & 0x7FFF_FFFF
        // Never 0, and never 0 in the low 24 bits (a placeholder's colour carries them).
        return id & 0xFF_FFFF == 0 ? id | 1 : id
    }

    /// Renders `image` into at most `cells`.
    public func render(_ image: Image, cells: CellSize, cellPixelSize: PixelSize) throws(RenderError) -> RenderedImage {
        try validate(image, cells: cells)
        let size = image.size.scaledToFit(cellPixelSize.pixels(for: cells))
        let id = Self.imageID(for: image, size: size)
        let covered = covered(size, cells: cells, cellPixelSize: cellPixelSize)
        let transmit = firstFrame(image.pixels(scaledTo: size), size: size, id: id, cells: covered)
        return picture(id: id, transmit: transmit, size: size, cells: covered, loops: nil)
    }

    /// Renders every frame of `image` into at most `cells` as one kitty animation, which the terminal
    /// plays itself: the first frame transmitted as a still is, its gap set (`a=a,r=1,z=…`), every
    /// further frame added to the image (`a=f`, its gap in `z`, drawn over transparent pixels: the
    /// decoder's frames are whole canvases). Nothing plays until `KittyRenderer.animation` says so
    /// (`KittySession` sends it after the upload). A still image renders as `render` does.
    public func renderAnimation(_ image: Image, cells: CellSize, cellPixelSize: PixelSize) throws(RenderError) -> RenderedImage {
        guard image.isAnimated else { return try render(image, cells: cells, cellPixelSize: cellPixelSize) }
        try validate(image, cells: cells)
        let size = image.size.scaledToFit(cellPixelSize.pixels(for: cells))
        let id = Self.imageID(for: image, size: size, animated: true)
        let covered = covered(size, cells: cells, cellPixelSize: cellPixelSize)
        var transmit = firstFrame(image.frameImage(0).pixels(scaledTo: size), size: size, id: id, cells: covered)
        for (index, duration) in image.frameDurations.enumerated() {
            let gap = Int((duration * 1000).rounded())
            if index == 0 {
                transmit += wrap(Self.command("a=a,i=\(id),r=1,z=\(gap),q=2", payload: []))
                continue
            }
            transmit += chunks(image.frameImage(index).pixels(scaledTo: size), size: size, keys: "a=f,x=0,y=0,z=\(gap)", id: id)
        }
        return picture(id: id, transmit: transmit, size: size, cells: covered, loops: image.loopCount)
    }

    /// The cells a picture of `size` pixels covers within `cells` (placeholders address at most
    /// `KittyPlaceholders.maximumCells` a side).
    private func covered(_ size: PixelSize, cells: CellSize, cellPixelSize: PixelSize) -> CellSize {
        var covered = CellSize(
            columns: min(cells.columns, (size.width + cellPixelSize.width - 1) / cellPixelSize.width),
            rows: min(cells.rows, (size.height + cellPixelSize.height - 1) / cellPixelSize.height))
        if placeholders {
            covered.columns = min(covered.columns, KittyPlaceholders.maximumCells)
            covered.rows = min(covered.rows, KittyPlaceholders.maximumCells)
        }
        return covered
    }

    /// The transmission of an image's data under `id` (with a virtual placement over `cells` for
    /// placeholders).
    private func firstFrame(_ rgba: [UInt8], size: PixelSize, id: UInt32, cells: CellSize) -> [UInt8] {
        let action = placeholders ? "a=T,U=1,c=\(cells.columns),r=\(cells.rows)" : "a=t"
        return chunks(rgba, size: size, keys: action, id: id)
    }

    /// `rgba` as commands for image `id` starting with `keys`: raw RGB (`f=24`) when opaque, else
    /// RGBA, deflated when that is smaller, in base64 chunks of at most `chunkSize`, each wrapped for
    /// passthrough.
    private func chunks(_ rgba: [UInt8], size: PixelSize, keys: String, id: UInt32) -> [UInt8] {
        var format = 32
        var raw = rgba
        if Self.isOpaque(rgba) {
            format = 24
            raw = [UInt8](repeating: 0, count: size.width * size.height * 3)
            for i in 0..<(size.width * size.height) {
                raw[i * 3] = rgba[i * 4]
                raw[i * 3 + 1] = rgba[i * 4 + 1]
                raw[i * 3 + 2] = rgba[i * 4 + 2]
            }
        }
        var compression = ""
        if let packed = Zlib.deflate(raw, level: 6), packed.count < raw.count {
            raw = packed
            compression = ",o=z"
        }
        let payload = Array(Data(raw).base64EncodedString().utf8)
        var out: [UInt8] = []
        out.reserveCapacity(payload.count + payload.count / Self.chunkSize * 40 + 64)
        var offset = 0
        repeat {
            let end = min(payload.count, offset + Self.chunkSize)
            let more = end < payload.count ? 1 : 0
            let first = offset == 0
                ? "\(keys),f=\(format)\(compression),s=\(size.width),v=\(size.height),i=\(id),q=2,m=\(more)"
                : "m=\(more),q=2"
            out += wrap(Self.command(first, payload: payload[offset..<end]))
            offset = end
        } while offset < payload.count
        return out
    }

    /// The picture of a transmission: placeholder rows over it, or a placement by id.
    private func picture(id: UInt32, transmit: [UInt8], size: PixelSize, cells: CellSize, loops: Int?) -> RenderedImage {
        let upload = ImageUpload(id: id, bytes: transmit, tmuxPassthrough: tmuxPassthrough, animationLoops: loops)
        if placeholders {
            let rows = KittyPlaceholders.rows(imageID: id, cells: cells)
            return RenderedImage(kind: .kittyPlaceholders, bytes: transmit + RenderedImage.joinRows(rows, columns: cells.columns),
                                 rows: rows, cells: cells, pixelSize: size, upload: upload)
        }
        let place = Self.placement(imageID: id, cells: cells, tmuxPassthrough: tmuxPassthrough)
        return RenderedImage(kind: .kitty, bytes: transmit + place, cells: cells, pixelSize: size, upload: upload)
    }

    static func isOpaque(_ rgba: [UInt8]) -> Bool {
        var i = 3
        while i < rgba.count {
            if rgba[i] != 255 { return false }
            i += 4
        }
        return true
    }

    /// `ESC _ G keys ; payload ESC \`.
    static func command(_ keys: String, payload: ArraySlice<UInt8>) -> [UInt8] {
        var out = EscapeSequence.apcIntroducer("G" + keys)
        if !payload.isEmpty {
            out.append(UInt8(ascii: ";"))
            out += payload
        }
        out += EscapeSequence.stringTerminator
        return out
    }

    func wrap(_ bytes: [UInt8]) -> [UInt8] { tmuxPassthrough ? TmuxPassthrough.wrap(bytes) : bytes }

    /// Places image `id` over `cells` at the cursor without moving it (`C=1`). Placing again with
    /// the same `placementID` moves that placement; give each slot its own id to show one image twice.
    /// `reportErrors` asks for error replies (`q=1`: the gallery reads them and counts them);
    /// otherwise every reply is suppressed (`q=2`: `--print` exits before a reply could be read).
    public static func placement(
        imageID id: UInt32, placementID: UInt32 = 1, cells: CellSize, tmuxPassthrough: Bool = false, reportErrors: Bool = false
    ) -> [UInt8] {
        let bytes = command("a=p,i=\(id),p=\(placementID),c=\(cells.columns),r=\(cells.rows),C=1,q=\(reportErrors ? 1 : 2)", payload: [])
        return tmuxPassthrough ? TmuxPassthrough.wrap(bytes) : bytes
    }

    /// The placement id of the cell whose top-left corner is at 0-based (`column`, `row`): one per
    /// cell, never 0, so one image shown in two cells has two placements.
    public static func placementID(column: Int, row: Int) -> UInt32 {
        UInt32(truncatingIfNeeded: max(0, row) & 0xFFFF) << 12 | UInt32(truncatingIfNeeded: max(0, column) & 0xFFF) + 1
    }

    /// Removes one placement (`a=d,d=i,i=…,p=…`: lowercase keeps the image data for a cheap re-place).
    public static func delete(imageID id: UInt32, placementID: UInt32, tmuxPassthrough: Bool = false) -> [UInt8] {
        let bytes = command("a=d,d=i,i=\(id),p=\(placementID),q=2", payload: [])
        return tmuxPassthrough ? TmuxPassthrough.wrap(bytes) : bytes
    }

    /// Removes every placement over the 0-based cell (`column`, `row`) (`a=d,d=p`). Konsole applies it
    /// to its sixel and iTerm2 placements too, which text never erases.
    public static func deletePlacements(atColumn column: Int, row: Int) -> [UInt8] {
        command("a=d,d=p,x=\(column + 1),y=\(row + 1),q=2", payload: [])
    }

    /// Plays an animation the terminal holds (`a=a,s=3`, looping `loops` times, 0: forever, as
    /// kitty's `v` counts one more) or stops it on its first frame (`a=a,s=1,c=1`: the same picture
    /// as after a repaint, which uploads it again).
    public static func animation(imageID id: UInt32, playing: Bool, loops: Int, tmuxPassthrough: Bool = false) -> [UInt8] {
        let keys = playing ? "a=a,i=\(id),s=3,v=\(loops > 0 ? loops + 1 : 1),q=2" : "a=a,i=\(id),s=1,c=1,q=2"
        let bytes = command(keys, payload: [])
        return tmuxPassthrough ? TmuxPassthrough.wrap(bytes) : bytes
    }

    /// Removes every placement on screen and frees the data of every image (`a=d,d=A`): on quit.
    public static func deleteAll(tmuxPassthrough: Bool = false) -> [UInt8] {
        let bytes = command("a=d,d=A,q=2", payload: [])
        return tmuxPassthrough ? TmuxPassthrough.wrap(bytes) : bytes
    }

    /// Removes the placements of image `id` (kept in the terminal's memory for a cheap re-place), or
    /// frees its data too when `freeData` is set. For a slot that scrolled away.
    public static func delete(imageID id: UInt32, freeData: Bool = false, tmuxPassthrough: Bool = false) -> [UInt8] {
        let bytes = command("a=d,d=\(freeData ? "I" : "i"),i=\(id),q=2", payload: [])
        return tmuxPassthrough ? TmuxPassthrough.wrap(bytes) : bytes
    }
}
