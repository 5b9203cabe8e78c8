import Foundation
import ImageCodecs

/// Hooks into `ImageManager` (SDWebImageManagerDelegate). Both run off the UI and network threads.
public protocol ImageManagerDelegate: AnyObject, Sendable {
    /// Whether `url` may be downloaded after a cache miss. Default: yes.
    func shouldDownloadImage(for url: URL) -> Bool
    /// A replacement for a freshly downloaded image (stored in memory instead of the original,
    /// without the original bytes). Default: the image itself.
    func transformDownloadedImage(_ image: Image, for url: URL) -> Image
}

extension ImageManagerDelegate {
    /// Default: allow every download.
    public func shouldDownloadImage(for url: URL) -> Bool { true }
    /// Default: no transformation.
    public func transformDownloadedImage(_ image: Image, for url: URL) -> Image { image }
}
