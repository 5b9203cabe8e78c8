import CSystem

/// Keeps glibc from holding on to freed image buffers. glibc raises its mmap threshold each time a
/// large mmapped block is freed (up to 32 MB); after that, image-sized buffers (a 12 MP JPEG's
/// bytes, decode outputs) come from the heap arenas, and freed ones stay resident: browsing 600
/// 12 MP images ended at about 200 MB RSS with 100 MB of it free heap. A fixed threshold puts every
/// buffer of 1 MB or more in its own mapping, returned to the kernel when freed. (A progressive
/// JPEG's coefficient arrays, which every such decode would fault in afresh, come from CJPEG's
/// reused arena instead.)
public enum HeapTuning {
    /// Buffers at least this large get their own mapping.
    public static let mmapThreshold: Int32 = 1 << 20

    /// Applies the tuning (once per process is enough); false where it is not available.
    @discardableResult
    public static func apply() -> Bool {
        sdg_sys_set_mmap_threshold(mmapThreshold) == 1
    }
}
