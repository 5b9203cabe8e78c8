import Foundation
import Testing
@testable import ImageCodecs

@Suite struct ImageCodersTests {
    @Test func badInputsGiveTypedErrors() throws {
        #expect(throws: DecodeError.empty) { try ImageCoders.decode(Data()) }
        #expect(throws: DecodeError.notAnImage(kind: "unknown")) { try ImageCoders.decode(try Reference.data("bad/random.bin")) }
        #expect(throws: DecodeError.notAnImage(kind: "text/html")) { try ImageCoders.decode(try Reference.data("bad/page.html")) }
        #expect(throws: DecodeError.corrupt(format: "BMP", reason: "0 planes")) { try ImageCoders.decode(Data("BM".utf8) + Data(count: 12) + Data([40]) + Data(count: 60)) }
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
            let decoder = ImageCoders.makeIncrementalDecoder()
            for offset in stride(from: 0, to: data.count, by: 7) {
                decoder.append(data.subdata(in: offset..<min(data.count, offset + 7)))
                _ = decoder.partialImage()
            }
            #expect(throws: DecodeError.self) { try decoder.finish() }
        }
    }

    /// Each decode owns its C state: concurrent decodes give identical results.
    @Test func concurrentDecodesAgree() async throws {
        let names = ["jpeg/progressive.jpg", "png/adam7.png", "gif/anim.gif", "webp/alpha.webp"]
        let inputs = try names.map { try Reference.data($0) }
        let expected = try inputs.map { try ImageCoders.decode($0).pixels }
        let results = try await withThrowingTaskGroup(of: (Int, [UInt8]).self) { group in
            for round in 0..<16 {
                let i = round % inputs.count
                let data = inputs[i]
                group.addTask { (i, try ImageCoders.decode(data).pixels) }
            }
            return try await group.reduce(into: [(Int, [UInt8])]()) { $0.append($1) }
        }
        #expect(results.count == 16)
        #expect(results.allSatisfy { expected[$0.0] == $0.1 })
    }

    @Test func everyFormatDecodesThroughTheEntryPoint() throws {
        for name in ["jpeg/baseline.jpg", "png/rgb.png", "gif/still.gif", "webp/lossy.webp"] {
            let image = try ImageCoders.decode(try Reference.data(name))
            #expect(image.pixels.count == image.width * image.height * 4)
            #expect(image.cost == image.pixels.count)
        }
    }
}
