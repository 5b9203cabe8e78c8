import Foundation
import Testing
@testable import ImageCodecs

@Suite struct ImageCodersTests {
    @Test func badInputsGiveTypedErrors() throws {
        #expect(throws: DecodeError.empty) { try ImageCoders.decode(Data()) }
        #expect(throws: DecodeError.notAnImage(kind: "unknown")) { try ImageCoders.decode(try Reference.data("bad/random.bin")) }
        #expect(throws: DecodeError.notAnImage(kind: "text/html")) { try ImageCoders.decode(try Reference.data("bad/page.html")) }
        #expect(throws: DecodeError.unsupportedFormat(name: "BMP")) { try ImageCoders.decode(Data("BM".utf8) + Data(count: 60)) }
    }

    /// Random bytes behind each format's magic: an error, never a crash or a print.
    @Test(arguments: [
        [0xFF, 0xD8, 0xFF, 0xDB] as [UInt8], [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],
        Array("GIF89a".utf8), Array("RIFF\u{0}\u{1}\u{0}\u{0}WEBPVP8 ".utf8),
    ])
    func garbageAfterMagicIsAnError(magic: [UInt8]) throws {
        var generator = SystemRandomNumberGenerator()
        for length in [0, 10, 100, 3000] {
            let data = Data(magic + (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
            #expect(throws: DecodeError.self) { try ImageCoders.decode(data) }
        }
    }

    @Test func everyFormatDecodesThroughTheEntryPoint() throws {
        for name in ["jpeg/baseline.jpg", "png/rgb.png", "gif/still.gif", "webp/lossy.webp"] {
            let image = try ImageCoders.decode(try Reference.data(name))
            #expect(image.pixels.count == image.width * image.height * 4)
            #expect(image.cost == image.pixels.count)
        }
    }
}
