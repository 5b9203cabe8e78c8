import CAVIF
import CGIF
import CHEIF
import CJPEG
import CJXL
import CPNG
import CTIFF
import CWebP

/// Versions of the codec libraries this process runs against, for `sdgallery --version`.
public enum CodecLibraries {
    /// (library, version) pairs.
    public static var versions: [(name: String, version: String)] {
        let turbo = sdg_jpeg_turbo_version_number()
        let png = Int(sdg_png_version_number())
        let gif = Int(sdg_gif_version_number())
        let jxl = Int(sdg_jxl_version())
        return [
            ("libjpeg-turbo", "\(turbo / 1_000_000).\(turbo / 1000 % 1000).\(turbo % 1000) (libjpeg API \(sdg_jpeg_lib_version()))"),
            ("libpng", "\(png / 10000).\(png / 100 % 100).\(png % 100)"),
            ("giflib", "\(gif / 10000).\(gif / 100 % 100).\(gif % 100)"),
            ("libwebp", packed(sdg_webp_decoder_version()) + " (demux " + packed(sdg_webp_demux_version()) + ")"),
            ("libavif", String(cString: sdg_avif_version()) + " (" + avifCodecs + ")"),
            ("libheif", String(cString: sdg_heif_version())),
            ("libtiff", String(cString: sdg_tiff_version()).replacingOccurrences(of: "LIBTIFF, Version ", with: "")),
            ("libjxl", "\(jxl / 1_000_000).\(jxl / 1000 % 1000).\(jxl % 1000)"),
            ("librsvg", SVGDecoder.libraryVersion),
        ]
    }

    /// libavif's AV1 codecs and their versions ("dav1d [dec]:1.0.0, aom [enc/dec]:3.6.0").
    private static var avifCodecs: String {
        var buffer = [CChar](repeating: 0, count: 256)
        return buffer.withUnsafeMutableBufferPointer { out in
            sdg_avif_codec_versions(out.baseAddress)
            return String(cString: out.baseAddress!)
        }
    }

    private static func packed(_ v: Int32) -> String { "\(v >> 16).\((v >> 8) & 0xFF).\(v & 0xFF)" }
}
