import Foundation
import ImageCodecs

/// The `jpeg-scans` target's input format: the bytes are a progressive JPEG's scan script, turned
/// into a file with fixed quantisation and Huffman tables (libjpeg's standard luminance tables).
///
/// Byte 0 and 1 give the width and height (1…256), byte 2 the layout (bit 0: three components,
/// bits 1–2: the luma sampling, bit 3: no EOI at the end). Then each scan is five bytes (component
/// mask, Ss, Se, Ah·16+Al, entropy length N) and N bytes of entropy-coded data (0xFF stuffed), as
/// many scans as the input holds: a scan bomb is one short header repeated.
enum JPEGScanScript {
    /// DQT (table 0) and DHT (DC 0, AC 0): the standard tables.
    static let tables: [UInt8] = hexBytes([
        "ffdb0043000302020302020303030304030304050805050404050a070706080c0a0c0c0b0a0b0b0d0e12100d0e110e0b",
        "0b1016101113141515150c0f171816141812141514ffc4001f0000010501010101010100000000000000000102030405",
        "060708090a0bffc400b5100002010303020403050504040000017d010203000411051221314106135161072271143281",
        "91a1082342b1c11552d1f02433627282090a161718191a25262728292a3435363738393a434445464748494a53545556",
        "5758595a636465666768696a737475767778797a838485868788898a92939495969798999aa2a3a4a5a6a7a8a9aab2b3",
        "b4b5b6b7b8b9bac2c3c4c5c6c7c8c9cad2d3d4d5d6d7d8d9dae1e2e3e4e5e6e7e8e9eaf1f2f3f4f5f6f7f8f9fa",
    ].joined())

    static func hexBytes(_ hex: String) -> [UInt8] {
        var bytes: [UInt8] = [], digits = Array(hex.utf8)[...]
        while digits.count >= 2, let byte = UInt8(String(decoding: digits.prefix(2), as: UTF8.self), radix: 16) {
            bytes.append(byte)
            digits = digits.dropFirst(2)
        }
        return bytes
    }

    /// The progressive JPEG the script describes, and how many scans it has.
    static func file(from script: Data) -> (jpeg: Data, scans: Int) {
        let input = [UInt8](script)
        let at: (Int) -> UInt8 = { $0 < input.count ? input[$0] : 0 }
        let width = 1 + Int(at(0)), height = 1 + Int(at(1)), layout = at(2)
        let components = layout & 1 == 1 ? 3 : 1
        let luma: UInt8 = components == 1 ? 0x11 : [0x11, 0x21, 0x22, 0x12][Int(layout >> 1) & 3]
        var out: [UInt8] = [0xFF, 0xD8] + tables
        out += [0xFF, 0xC2, 0, UInt8(8 + 3 * components), 8, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), UInt8(components)]
        for c in 0..<components { out += [UInt8(c + 1), c == 0 ? luma : 0x11, 0] }
        var offset = 3, scans = 0
        while offset + 5 <= input.count {
            let mask = input[offset], ss = input[offset + 1] % 64, se = input[offset + 2] % 64, ahal = input[offset + 3]
            let length = Int(input[offset + 4])
            offset += 5
            let chosen = (0..<components).filter { components == 1 || mask & (1 << $0) != 0 }
            let members = chosen.isEmpty ? [0] : chosen
            out += [0xFF, 0xDA, 0, UInt8(6 + 2 * members.count), UInt8(members.count)]
            for c in members { out += [UInt8(c + 1), 0x00] }
            out += [ss, se, ahal]
            for byte in input[offset..<min(input.count, offset + length)] {
                out.append(byte)
                if byte == 0xFF { out.append(0) }
            }
            offset += length
            scans += 1
        }
        if layout & 8 == 0 { out += [0xFF, 0xD9] }
        return (Data(out), scans)
    }

    /// Decodes the script's file through the image target's checks. Past the scan limit the image
    /// is as of the last scan allowed: the file must decode as its first `limit` scans followed by
    /// an EOI do (whatever follows them, the EOI included or not).
    static func run(_ script: Data) -> FuzzReport {
        let (jpeg, scans) = file(from: script)
        var report = ImageFuzzing.run(jpeg, forcing: .jpeg)
        report.note("\(scans) scans")
        let input = [UInt8](script)
        let width = 1 + Int(input.first ?? 0), height = 1 + Int(input.count > 1 ? input[1] : 0)
        // A cell of 1/8, 1/4 and 1/2 of the image: the scans each scale needs.
        for d in [8, 4, 2] {
            NeededBytesFuzzing.check(jpeg, box: PixelSize(width: max(1, width / d), height: max(1, height / d)), split: 1 + scans % 7, into: &report)
        }
        let limit = DecodeOptions().scanLimit(area: width * height)
        guard scans > limit, input.count > 3 else { return report }
        var offset = 3
        for _ in 0..<limit { offset += 5 + Int(input[offset + 4]) }
        var prefix = Array(input[..<min(offset, input.count)])
        prefix[2] &= ~8
        let (allowed, _) = file(from: Data(prefix))
        let got = Result { try ImageCoders.decode(jpeg) }, want = Result { try ImageCoders.decode(allowed) }
        switch (got, want) {
        case (.success(let x), .success(let y)):
            report.expect(x.pixels == y.pixels, "past the scan limit: not the image of the first \(limit) scans")
        case (.failure, .failure): break
        default: report.fail("past the scan limit: \(got.map(\.size)), the first \(limit) scans: \(want.map(\.size))")
        }
        return report
    }
}
