import Foundation

/// What the runner plugs into the frame loop (`GalleryApp.settings`), set once before `run()`.
public struct GalleryAppSettings {
    /// Reads the downloader's counters into the status bar; called on every spinner step while
    /// something is active, so the "active" count settles even when the last download event was
    /// applied before its slot was freed (events only say something changed; this reads what is).
    public var statusRefresh: (@Sendable (inout StatusInfo) -> Void)?
    /// Saves an image's original (`s`); calls back, on any thread, with the status line. Nil: `s`
    /// says saving is not available.
    public var saveOriginal: ((ImageLocation, @escaping @Sendable (String) -> Void) -> Void)?
    /// Whether the window gaining focus repaints everything (sixel: the terminal may have lost images
    /// while the window was unmapped). The screen must have focus reports on.
    public var repaintOnFocus = false

    /// The defaults: no saving, no focus repaints.
    public init() {}
}
