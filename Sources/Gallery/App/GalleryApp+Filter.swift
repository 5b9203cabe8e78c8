import Foundation
import Locking

/// The `/` filter's scan of a long list runs off the UI thread: the model asks for a `FilterScan`,
/// the frame loop starts it on `filterQueue`, and each chunk's matches come back through the inbox
/// as `.filterResults`. A newer filter generation (the next key, Esc) stops it at its next chunk.
extension GalleryApp {
    /// Where filter scans run (one at a time; a stale one ends at its next chunk).
    static let filterQueue = DispatchQueue(label: "sdgallery.filter", qos: .userInitiated)

    /// Publishes the model's filter generation to running scans and starts the scan it asks for.
    /// Called on the UI thread once per loop iteration.
    func followFilter() {
        let generation = model.filterGeneration
        currentFilterGeneration.withLock { $0 = generation }
        guard let scan = model.takeFilterScan() else { return }
        let current = currentFilterGeneration
        let inbox = inbox
        Self.filterQueue.async {
            scan.run(isCurrent: { current.withLock { $0 } == scan.generation }) { results in
                inbox.post(.filterResults(results))
            }
        }
    }

    /// A chunk of scan results, on the UI thread.
    func receive(_ results: FilterResults) {
        model.receiveFilterResults(results)
        dirty = true
    }
}
