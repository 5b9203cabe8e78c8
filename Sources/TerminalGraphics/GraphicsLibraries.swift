import CSixel

/// The graphics library this process runs against, for `sdgallery --version`.
public enum GraphicsLibraries {
    /// libsixel's version.
    public static var sixelVersion: String { String(cString: sdg_sixel_version()) }
}
