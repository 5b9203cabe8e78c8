import Testing
import Zlib

@Suite struct ZlibTests {
    @Test func crc32KnownValues() {
        #expect(Zlib.crc32(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(Zlib.crc32([UInt8]()) == 0)
        #expect(Zlib.crc32(Array("The quick brown fox jumps over the lazy dog".utf8)) == 0x414F_A339)
        // Python: zlib.crc32(bytes((i*7+3)&0xff for i in range(1001)))
        #expect(Zlib.crc32((0..<1001).map { UInt8(truncatingIfNeeded: $0 * 7 + 3) }) == 0xB113_3F7E)
    }

    @Test func crc32IncrementalEqualsOneShot() {
        let bytes = (0..<777).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 17) }
        for split in [0, 1, 7, 8, 9, 400, 777] {
            var crc = bytes[..<split].withUnsafeBytes { Zlib.crc32(0, $0) }
            crc = bytes[split...].withUnsafeBytes { Zlib.crc32(crc, $0) }
            #expect(crc == Zlib.crc32(bytes), "split at \(split)")
        }
    }

    @Test(arguments: [Zlib.Wrapper.zlib, .gzip])
    func deflateRoundTrips(wrapper: Zlib.Wrapper) throws {
        let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: ($0 / 97) &* 31) }
        for level: Int32 in [0, 1, 6, 9] {
            let packed = try #require(Zlib.deflate(bytes, level: level, wrapper: wrapper))
            #expect(packed.first == (wrapper == .gzip ? 0x1F : 0x78))
            if level > 0 { #expect(packed.count < bytes.count / 10) }
            #expect(Zlib.inflate(packed, capacity: bytes.count) == bytes)
        }
        #expect(Zlib.deflate([UInt8](), wrapper: wrapper).map { Zlib.inflate($0, capacity: 0) } == [])
    }

    @Test func inflateRefusesGarbageAndOverflow() throws {
        #expect(Zlib.inflate([1, 2, 3, 4, 5], capacity: 100) == nil)
        let packed = try #require(Zlib.deflate([UInt8](repeating: 7, count: 1000)))
        #expect(Zlib.inflate(packed, capacity: 999) == nil)
    }
}
