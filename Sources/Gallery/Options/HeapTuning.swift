#if canImport(Glibc)
import Glibc
#endif

/// Keeps glibc from holding on to freed image buffers. glibc raises its mmap threshold each time a
/// large mmapped block is freed (up to 32 MB); after that, image-sized buffers (a 12 MP JPEG's
/// bytes, decode outputs) come from the heap arenas, and freed ones stay resident: browsing 600
/// 12 MP images ended at about 200 MB RSS with 100 MB of it free heap. A fixed threshold puts every
/// buffer of 1 MB or more in its own mapping, returned to the kernel when freed.
public enum HeapTuning {
    /// Buffers at least this large get their own mapping.
    public static let mmapThreshold: Int32 = 1 << 20

    /// Applies the tuning (once per process is enough); false where it is not available.
    @discardableResult
    public static func apply() -> Bool {
        #if canImport(Glibc)
        // `mallopt` and `M_MMAP_THRESHOLD` (-3, glibc's stable ABI) are in <malloc.h>, which the
        // Glibc module does not import: look the function up in the process instead.
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, "mallopt") else { return false }
        let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
        return mallopt(-3, mmapThreshold) == 1
        #else
        return false
        #endif
    }
}
