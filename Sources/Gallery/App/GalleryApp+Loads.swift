import ImageCodecs
import WebImage

/// The frame loop's side of the one binding path: hands model diffs to the image source and applies
/// the updates the source delivers (on the UI thread, already checked for staleness by the slot).
extension GalleryApp {
    /// Applies one load update to the cell bound to `slot`. The source calls this on the UI thread
    /// only for the slot's current load, so there is no staleness check here.
    func apply(_ update: CellImageUpdate, to slot: SlotID) {
        guard let binding = model.binding(of: slot) else { return }
        dirty = true
        switch update {
        case .progress(let received, let expected):
            if pictures.image(of: slot) == nil { model.setState(.progress(received: received, expected: expected), of: binding.index) }
        case .partial(let image):
            pictures.setImage(image, of: slot)
            model.setState(.partial, of: binding.index)
        case .final(let image, let details):
            pictures.setImage(image, of: slot)
            countCached(binding.index, cached: details.origin == "memory" || details.origin == "disk")
            model.setState(.final, of: binding.index)
            model.setInfo(of: binding.index, pixelSize: details.pixelSize, byteCount: details.byteCount, format: details.format, origin: details.origin)
        case .failed(let message):
            if case .failed = model.items[binding.index].state {} else { status.failures += 1 }
            model.setState(.failure(message), of: binding.index)
        case .notModified:
            model.setState(.final, of: binding.index)
        }
        // Counted once per loop iteration, not per update (each count reads every visible item).
        statusBar.pendingCountStale = true
    }

    /// Hands a model diff to the image source: cancels first, then binds as one screen in order of
    /// importance (the selection first: downloads go out in that order, ahead of older screens'),
    /// then prefetches.
    func apply(_ diff: BindingDiff) {
        guard !diff.isEmpty else { return }
        for cancelled in diff.cancels {
            source.cancel(slot: cancelled.slot)
            pictures.bindingEnded(cancelled.slot)
        }
        for request in diff.prefetchCancels { source.cancelPrefetch(request) }
        if !diff.binds.isEmpty { source.beginScreen() }
        for binding in diff.binds { bind(binding, options: []) }
        for request in diff.prefetchStarts where request.index < model.count {
            let item = model.items[request.index]
            if item.problem == nil { source.prefetch(request, item: item) }
        }
        dirty = true
        updatePendingCount()
    }

    func bind(_ binding: SlotBinding, options: BindOptions) {
        guard binding.index < model.count else { return }
        let item = model.items[binding.index]
        guard item.problem == nil else { return }  // a bad list line: its cell shows the diagnostic
        let slot = binding.slot
        // Weak: the source's slot keeps this closure while its load runs, and the app owns the source.
        source.bind(slot: slot, item: item, targetSize: binding.target,
                    options: options.union(binding.request.bindOptions)) { [weak self] update in
            self?.apply(update, to: slot)
        }
    }

    /// Counts the items whose image came from the memory or disk cache (not cache hits: one item
    /// rebound ten times counts once, so the count never exceeds the number of images).
    func countCached(_ index: Int, cached: Bool) { statusBar.countCached(index, cached: cached) }

    func updatePendingCount() {
        statusBar.pendingCountStale = false
        status.pendingCells = model.bindings.filter { !model.items[$0.index].state.isSettled }.count
    }
}
