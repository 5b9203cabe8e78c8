#if canImport(Glibc)
import Glibc
#endif

/// Which sanitizer runtime this test process carries (`make test-asan` / `make test-tsan`).
public enum Sanitizers {
    /// AddressSanitizer is linked in: its quarantine and shadow memory inflate RSS, and it
    /// intercepts `mallopt` (which then does nothing).
    public static let address: Bool = symbolPresent("__asan_init")
    /// ThreadSanitizer is linked in.
    public static let thread: Bool = symbolPresent("__tsan_init")

    private static func symbolPresent(_ name: String) -> Bool {
        #if canImport(Glibc)
        return dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) != nil  // RTLD_DEFAULT
        #else
        return false
        #endif
    }
}
