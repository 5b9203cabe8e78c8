import Foundation

/// A read-only, private file mapping whose pages a pass over it gives back behind itself
/// (`madvise(MADV_DONTNEED)`): the page cache keeps the file, this process keeps only what it
/// touches again (a later read faults its page back in, with the file's bytes). Only for a
/// mapping of a file: anonymous memory would read back as zeros.
struct MappedPages: @unchecked Sendable {  // `base` is immutable; madvise may run on any thread
    let base: UnsafeMutableRawPointer
    let count: Int
    static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// Gives back the whole pages inside `range` (byte offsets in the mapping).
    func release(_ range: Range<Int>) {
        let first = (max(0, range.lowerBound) + Self.pageSize - 1) / Self.pageSize * Self.pageSize
        let end = min(count, range.upperBound) / Self.pageSize * Self.pageSize
        guard end > first else { return }
        _ = madvise(base + first, end - first, MADV_DONTNEED)
    }
}
