import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What the cache needs from `stat`.
struct FileStatus: Sendable, Equatable {
    var size: Int
    var modified: Date
    var device: UInt64
    var inode: UInt64
    var mode: UInt32
    var isRegular: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFREG) }
    var isDirectory: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFDIR) }

    init(_ st: stat) {
        size = Int(st.st_size)
        modified = Date(timeIntervalSince1970: Double(st.st_mtim.tv_sec) + Double(st.st_mtim.tv_nsec) / 1e9)
        device = UInt64(st.st_dev)
        inode = UInt64(st.st_ino)
        mode = UInt32(st.st_mode)
    }
}

extension timespec {
    /// A timespec for `date` (nanosecond precision).
    init(_ date: Date) {
        let t = date.timeIntervalSince1970
        let seconds = t.rounded(.down)
        self.init(tv_sec: Int(seconds), tv_nsec: Int(min(999_999_999, max(0, (t - seconds) * 1e9))))
    }
}
