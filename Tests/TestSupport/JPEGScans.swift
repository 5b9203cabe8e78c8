import Foundation

/// Where the scans of a JPEG are: entropy-coded data never holds `FF DA` or `FF D9` (a data byte FF is
/// followed by 00 or a restart marker), so those bytes outside the header segments are the markers.
/// For files without metadata segments (as `cjpeg` makes them), where header bytes cannot look alike.
public enum JPEGScans {
    /// Offsets of each scan's SOS marker.
    public static func starts(_ jpeg: Data) -> [Int] {
        let bytes = [UInt8](jpeg)
        return (0..<max(0, bytes.count - 1)).filter { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA }
    }

    /// Where each scan ends: the next scan's SOS marker, or the EOI marker for the last one (the
    /// tables between two scans count with the earlier scan).
    public static func ends(_ jpeg: Data) -> [Int] {
        let bytes = [UInt8](jpeg)
        let markers = (0..<max(0, bytes.count - 1)).filter { bytes[$0] == 0xFF && (bytes[$0 + 1] == 0xDA || bytes[$0 + 1] == 0xD9) }
        return Array(markers.dropFirst())
    }
}
