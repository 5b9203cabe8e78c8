import Testing
@testable import WebImage

@Suite struct CRC32Tests {
    @Test func knownValues() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum([]) == 0)
        #expect(CRC32.checksum(Array("The quick brown fox jumps over the lazy dog".utf8)) == 0x414F_A339)
        // Python: zlib.crc32(bytes((i*7+3)&0xff for i in range(1001)))
        #expect(CRC32.checksum((0..<1001).map { UInt8(truncatingIfNeeded: $0 * 7 + 3) }) == 0xB113_3F7E)
    }

    @Test func incrementalEqualsOneShot() {
        let bytes = (0..<777).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 17) }
        for split in [0, 1, 7, 8, 9, 400, 777] {
            var crc = bytes[..<split].withUnsafeBytes { CRC32.update(0, $0) }
            crc = bytes[split...].withUnsafeBytes { CRC32.update(crc, $0) }
            #expect(crc == CRC32.checksum(bytes), "split at \(split)")
        }
    }

    @Test func detectsASingleFlippedBit() {
        var bytes = [UInt8](repeating: 0x5A, count: 4096)
        let before = CRC32.checksum(bytes)
        bytes[2049] ^= 0x10
        #expect(CRC32.checksum(bytes) != before)
    }
}
