import Foundation

/// The coders this build has, best first (SDWebImage's `SDImageCodersManager`): sniffing names the
/// format, the registry gives its coder, and the pipeline asks the coder what it can do.
///
/// ```swift
/// if let coder = ImageCoderRegistry.coder(for: ImageFormat.sniff(data)) { image = try coder.decode(data, options: options) }
/// ImageCoderRegistry.acceptHeader   // "image/avif,image/webp,…;q=0.8"
/// ```
public enum ImageCoderRegistry {
    /// Every coder, in the order a server should prefer their formats (smaller files first).
    public static let coders: [any ImageCoder] = [
        AVIFCoder(), JXLCoder(), WebPCoder(), HEICCoder(), PNGCoder(), JPEGCoder(), GIFCoder(), SVGCoder(), TIFFCoder(), BMPCoder(), ICOCoder(),
    ]

    private static let byFormat: [ImageFormat: any ImageCoder] = Dictionary(coders.map { ($0.format, $0) }, uniquingKeysWith: { a, _ in a })

    /// Every file extension of a format decoded here, lowercased.
    public static let fileExtensions: Set<String> = Set(coders.flatMap(\.fileExtensions))

    /// The coder for `format`, or nil when this build does not decode it.
    public static func coder(for format: ImageFormat) -> (any ImageCoder)? { byFormat[format] }

    /// The `Accept` header of an image request, as a browser sends it: every format decoded here,
    /// best first, then any other image at a lower weight (a server that negotiates sends the first
    /// of ours it has; one that does not still answers).
    public static let acceptHeader: String = (coders.map(\.mediaType) + ["image/*;q=0.8"]).joined(separator: ",")
}
