import Testing
@testable import ImageCodecs

@Suite struct ExifOrientationTests {
    static func payload(_ value: UInt8, littleEndian: Bool) -> [UInt8] {
        let header: [UInt8] = littleEndian ? [0x49, 0x49, 42, 0, 8, 0, 0, 0] : [0x4D, 0x4D, 0, 42, 0, 0, 0, 8]
        let entry: [UInt8] = littleEndian
            ? [1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, value, 0, 0, 0, 0, 0, 0, 0, 0, 0]
            : [0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, value, 0, 0, 0, 0, 0, 0, 0, 0]
        return Array("Exif".utf8) + [0, 0] + header + entry
    }

    @Test(arguments: 1...8)
    func parsesBothByteOrders(value: Int) {
        #expect(ExifOrientation.parse(exif: Self.payload(UInt8(value), littleEndian: true)).rawValue == value)
        #expect(ExifOrientation.parse(exif: Self.payload(UInt8(value), littleEndian: false)).rawValue == value)
    }

    @Test func malformedPayloadsMeanUpright() {
        #expect(ExifOrientation.parse(exif: []) == .up)
        #expect(ExifOrientation.parse(exif: Array(Self.payload(6, littleEndian: true).prefix(20))) == .up)
        #expect(ExifOrientation.parse(exif: Self.payload(9, littleEndian: true)) == .up)
        var wildOffset = Self.payload(6, littleEndian: false)
        wildOffset[10...13] = [0xFF, 0xFF, 0xFF, 0xF0]
        #expect(ExifOrientation.parse(exif: wildOffset) == .up)
    }

    @Test func rotatesAndMirrors() {
        // 2×1: red, green.
        let b = Bitmap(width: 2, height: 1, pixels: [255, 0, 0, 255, 0, 255, 0, 255])
        #expect(b.oriented(.upMirrored).pixels == [0, 255, 0, 255, 255, 0, 0, 255])
        let right = b.oriented(.right)
        #expect(right.size == PixelSize(width: 1, height: 2))
        #expect(right.pixels == [255, 0, 0, 255, 0, 255, 0, 255])
        #expect(b.oriented(.left).pixels == [0, 255, 0, 255, 255, 0, 0, 255])
    }
}
