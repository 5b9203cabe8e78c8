import ImageCodecs
import TerminalGraphics
@testable import Gallery
import WebImage

/// A `CellImageSource` whose loads move only when the test says (`step`): progress, a partial
/// image, the final image, a failure, a stall, a revalidation. Finals go to a memory cache, from
/// which later binds are answered inline (as `ManagerImageSource` does for memory hits). Images
/// have mixed sizes and aspect ratios by item (solid colours keyed by the item). UI thread only.
final class ScriptedSource: CellImageSource {
    struct Load {
        let slot: SlotID
        let index: Int
        let options: BindOptions
        let onUpdate: (CellImageUpdate) -> Void
        var received: Int64 = 0
    }

    /// What a load does next.
    enum Step: Int, CaseIterable, Sendable {
        case progress, partial, final, fail, stall, revalidate
    }

    /// Loads in flight, oldest first.
    private(set) var loads: [Load] = []
    /// The memory cache: the final image of each item delivered so far.
    private(set) var memory: [Int: Image] = [:]
    /// Items whose load failed (their next binds fail again at once: a failed URL).
    private var failed: Set<Int> = []
    private var generation = 0

    /// A solid image for `index`: 12–72 px wide and tall, by item (landscape, portrait, square).
    /// Every fourth item's final image is an animation of three colours, 20 ms a frame (the cells
    /// play it: `GalleryModel.animatesCells`).
    func makeImage(_ index: Int, variant: Int = 0) -> Image {
        let width = 12 + (index * 37 % 6) * 12, height = 12 + (index * 53 % 5) * 15
        func solid(_ variant: Int) -> [UInt8] {
            let colour: [UInt8] = [UInt8(truncatingIfNeeded: index * 29 + variant * 101), UInt8(truncatingIfNeeded: index * 71), UInt8(truncatingIfNeeded: 40 + variant * 50), 255]
            // One pixel's four bytes repeated as a word, then copied out as bytes (the same pixels
            // as joining `width * height` copies of `colour`, which took a third of the exploration
            // in a debug build).
            let pixel = colour.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
            return [UInt32](repeating: pixel, count: width * height).withUnsafeBytes { Array($0) }
        }
        guard index % 4 == 3, variant == 0 else { return Image(width: width, height: height, pixels: solid(variant)) }
        let frames = (0..<3).map { ImageFrame(pixels: solid($0 * 2), duration: 0.02) }
        return Image(width: width, height: height, pixels: frames[0].pixels, frames: frames, loopCount: 0)
    }

    func details(_ image: Image, origin: String) -> ImageDetails {
        ImageDetails(pixelSize: PixelSize(width: image.width, height: image.height), byteCount: 1234, format: "PNG", origin: origin)
    }

    func bind(slot: SlotID, item: GalleryItem, targetSize: PixelSize, options: BindOptions, onUpdate: @escaping (CellImageUpdate) -> Void) {
        cancel(slot: slot)
        let index = item.entry.line - 1
        if let cached = memory[index] {
            onUpdate(.final(cached, details(cached, origin: "memory")))
            if !options.contains(.refresh) { return }
        } else if failed.contains(index) {
            onUpdate(.failed("404 Not Found"))
            return
        }
        loads.append(Load(slot: slot, index: index, options: options, onUpdate: onUpdate))
    }

    /// Moves load number `pick` (modulo the loads in flight) by `step`; false when none is in flight.
    @discardableResult
    func advance(_ pick: Int, _ step: Step) -> Bool {
        guard !loads.isEmpty else { return false }
        let at = pick % loads.count
        let load = loads[at]
        switch step {
        case .progress:
            loads[at].received += 4096
            load.onUpdate(.progress(received: loads[at].received, expected: 65536))
        case .partial:
            load.onUpdate(.partial(makeImage(load.index, variant: 1)))
        case .final:
            finish(at)
        case .fail:
            loads.remove(at: at)
            failed.insert(load.index)
            load.onUpdate(.failed("500 Internal Server Error"))
        case .stall:
            break
        case .revalidate:
            loads.remove(at: at)
            if load.options.contains(.refresh), memory[load.index] != nil {
                // A refresh: unchanged (304) or a new image, by turns.
                generation += 1
                if generation % 2 == 0 {
                    load.onUpdate(.notModified)
                } else {
                    let image = makeImage(load.index, variant: 2 + generation)
                    memory[load.index] = image
                    load.onUpdate(.final(image, details(image, origin: "network")))
                }
            } else {
                loads.insert(load, at: at)
                finish(at)
            }
        }
        return true
    }

    /// Finishes every load in flight (the network caught up).
    func finishAll() {
        while !loads.isEmpty { finish(0) }
    }

    private func finish(_ at: Int) {
        let load = loads.remove(at: at)
        let image = memory[load.index] ?? makeImage(load.index)
        memory[load.index] = image
        load.onUpdate(.final(image, details(image, origin: "network")))
    }

    func cancel(slot: SlotID) { loads.removeAll { $0.slot == slot } }
    func prefetch(_ request: PrefetchRequest, item: GalleryItem) {}
    func cancelPrefetch(_ request: PrefetchRequest) {}
    func cancelAll() { loads.removeAll() }
    func cachedImage(for item: GalleryItem, targetSize: PixelSize) -> Image? { memory[item.entry.line - 1] }
}
