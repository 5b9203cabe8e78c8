import Foundation
import Testing
@testable import ImageCodecs

@Suite struct ImageFormatTests {
    @Test(arguments: [
        ([0xFF, 0xD8, 0xFF, 0xE0], ImageFormat.jpeg),
        ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0], .png),
        (Array("GIF89a....".utf8), .gif),
        (Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8), .webp),
        (Array("BM\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}(\u{0}".utf8), .bmp),
        ([0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0], .tiff),
        ([0, 0, 0, 0x18] + Array("ftypheic".utf8), .heic),
        ([0, 0, 0, 0x18] + Array("ftypavif".utf8), .avif),
        (Array("<?xml version=\"1.0\"?><svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8), .svg),
        (Array("  <!DOCTYPE html><html><body>404</body></html>".utf8), .html),
        (Array("Not Found\n".utf8), .text),
        ([0x00, 0x01, 0x02, 0x03, 0x04], .unknown),
    ] as [([UInt8], ImageFormat)])
    func sniffsMagicBytes(bytes: [UInt8], expected: ImageFormat) {
        #expect(ImageFormat.sniff(Data(bytes)) == expected)
    }

    @Test func undecodableFormatsGiveClearErrors() {
        #expect(ImageFormat.bmp.undecodableError == nil)
        #expect(ImageFormat.html.undecodableError == .notAnImage(kind: "text/html"))
        #expect(ImageFormat.jpeg.undecodableError == nil)
        #expect(throws: DecodeError.empty) { try ImageCoders.decode(Data()) }
        #expect(throws: DecodeError.notAnImage(kind: "text/html")) {
            try ImageCoders.decode(Data("<html><body>oops</body></html>".utf8))
        }
    }
}
