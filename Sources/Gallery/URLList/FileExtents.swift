import Foundation

/// Where an open file has data, asked of the file system (`lseek` with `SEEK_DATA` and
/// `SEEK_HOLE`): a sparse file's holes read as zeros, and a pass looking for newlines can jump
/// them instead of faulting in every page (a 10 GB hole is 2.6 million pages).
struct FileExtents {
    let descriptor: Int32
    let size: Int
    /// Linux's `SEEK_DATA` and `SEEK_HOLE` (glibc declares them only under `_GNU_SOURCE`).
    static let seekData: Int32 = 3, seekHole: Int32 = 4

    /// The first run of data at or after `offset` (the bytes before it are a hole: zeros), or nil
    /// when only a hole is left. A file system without hole support reports one run to the end.
    func data(from offset: Int) -> Range<Int>? {
        guard offset < size else { return nil }
        let start = lseek(descriptor, off_t(offset), Self.seekData)
        if start < 0 { return errno == ENXIO ? nil : offset..<size }
        let hole = lseek(descriptor, start, Self.seekHole)
        let end = hole < 0 ? size : min(size, Int(hole))
        return Int(start) < end ? Int(start)..<end : nil
    }
}
