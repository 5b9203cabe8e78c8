import Foundation
import Testing
import TestSupport
@testable import ImageCodecs

/// `SVGCoder` (librsvg through `SVGDecoder`) against rsvg-convert's renders (scripts/make-fixtures).
@Suite struct SVGCoderTests {
    static func svg(_ body: String, width: Int = 100, height: Int = 100) -> Data {
        Data("<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"\(width)\" height=\"\(height)\">\(body)</svg>".utf8)
    }

    @Test func theFullViewRendersAtTheIntrinsicSize() throws {
        let (image, psnr) = try Reference.psnr("svg/shapes.svg", reference: "svg/shapes.svg", size: PixelSize(width: 120, height: 80))
        #expect(image.size == PixelSize(width: 120, height: 80))
        #expect(image.sourceSize == PixelSize(width: 120, height: 80))
        #expect(image.sourceFormat == .svg)
        #expect(psnr >= 40)
    }

    /// Drawn at the cell's size, not scaled down from the full render: as rsvg-convert -w 30 draws
    /// it, and closer to that than the full render scaled down.
    @Test func aCellSizedRenderIsDrawnAtThatSize() throws {
        let cell = PixelSize(width: 30, height: 30), size = PixelSize(width: 30, height: 20)
        let (image, psnr) = try Reference.psnr("svg/shapes.svg", options: DecodeOptions(targetSize: cell), size: size)
        #expect(image.size == size)
        #expect(image.sourceSize == PixelSize(width: 120, height: 80))
        #expect(psnr >= 40)
        let full = try ImageCoders.decode(try Reference.data("svg/shapes.svg"))
        let scaled = Bitmap(width: full.width, height: full.height, pixels: full.pixels).scaled(to: size)
        let scaledPSNR = Reference.psnr(scaled.pixels, try Reference.pixels("svg/shapes.svg", size: size))
        print("PSNR svg/shapes.svg full render scaled to \(size): \(String(format: "%.2f", scaledPSNR)) dB")
        #expect(psnr > scaledPSNR)
    }

    /// A box larger than the document draws it larger (a vector is sharp at any size): the full view
    /// of a 300×180 logo was drawn at 300×180 and stretched to the screen. As rsvg-convert -w 240.
    @Test func aLargerBoxDrawsItLargerAndSharp() throws {
        let box = PixelSize(width: 240, height: 240), size = PixelSize(width: 240, height: 160)
        let (image, psnr) = try Reference.psnr("svg/shapes.svg", options: DecodeOptions(targetSize: box), size: size)
        #expect(image.size == size)
        #expect(image.sourceSize == PixelSize(width: 120, height: 80))
        #expect(psnr >= 40)
    }

    @Test func aViewBoxAloneFillsTheDefaultBox() throws {
        let data = try Reference.data("svg/viewbox-only.svg")
        let full = try ImageCoders.decode(data)
        #expect(full.size == PixelSize(width: 512, height: 256))
        let (cell, psnr) = try Reference.psnr("svg/viewbox-only.svg", options: DecodeOptions(targetSize: PixelSize(width: 64, height: 64)), size: PixelSize(width: 64, height: 32))
        #expect(cell.size == PixelSize(width: 64, height: 32))
        #expect(cell.sourceSize == PixelSize(width: 512, height: 256))
        #expect(psnr >= 40)
    }

    @Test func aCommentAndDoctypeBeforeTheRootStillSniffAsSVG() throws {
        let data = try Reference.data("svg/comment-doctype.svg")
        #expect(ImageFormat.sniff(data) == .svg)
        let image = try ImageCoders.decode(data)
        #expect(image.size == PixelSize(width: 40, height: 40))
        #expect(image.pixel(x: 20, y: 5) == (255, 0, 0, 255))
        #expect(image.pixel(x: 20, y: 30).a == 0)
        // HTML stays HTML.
        #expect(ImageFormat.sniff(Data("<!-- page --><html><body><svg></svg></body></html>".utf8)) == .html)
        #expect(ImageFormat.sniff(Data("<!DOCTYPE html><html><svg></svg></html>".utf8)) == .html)
        #expect(ImageFormat.sniff(Data("<!DOCTYPE svg [ <!ENTITY a \"b\"> ]><svg/>".utf8)) == .svg)
    }

    /// A red PNG drawn over a blue square: from a file: URL it is refused (the square stays blue);
    /// the same PNG as a data: URL is drawn, so the check can tell.
    @Test func externalFilesAreNotRead() throws {
        let directory = try Fixtures.temporaryDirectory("svg-external")
        defer { try? FileManager.default.removeItem(at: directory) }
        let png = TestPNG.solid(width: 10, height: 10, rgba: (255, 0, 0, 255))
        let file = directory.appendingPathComponent("red.png")
        try png.write(to: file)
        func render(_ href: String) throws -> Image {
            try ImageCoders.decode(Self.svg("<rect width=\"100\" height=\"100\" fill=\"#00f\"/><image href=\"\(href)\" xlink:href=\"\(href)\" width=\"100\" height=\"100\"/>"))
        }
        #expect(try render(file.absoluteString).pixel(x: 50, y: 50) == (0, 0, 255, 255))
        #expect(try render(file.path).pixel(x: 50, y: 50) == (0, 0, 255, 255))
        #expect(try render("data:image/png;base64," + png.base64EncodedString()).pixel(x: 50, y: 50) == (255, 0, 0, 255))
    }

    @Test func nothingIsFetchedOverHTTP() async throws {
        let server = try await LoopbackServer.start()
        server.route("/x.png", .ok(TestPNG.solid(width: 10, height: 10, rgba: (255, 0, 0, 255)), contentType: "image/png"))
        let url = server.url("/x.png").absoluteString
        let image = try ImageCoders.decode(Self.svg("<rect width=\"100\" height=\"100\" fill=\"#00f\"/><image href=\"\(url)\" width=\"100\" height=\"100\"/><use href=\"\(url)#a\"/>"))
        #expect(image.pixel(x: 50, y: 50) == (0, 0, 255, 255))
        try await Task.sleep(for: .milliseconds(200))
        #expect(server.requests(to: "/x.png").isEmpty)
        await server.stop()
    }

    /// Entity expansion and nested <use> (10¹² rectangles), straight to the decoder: refused, and
    /// within seconds (librsvg stops <use> at 500,000 referenced elements, which takes it ≈ 4 s
    /// here; libxml2 refuses the entity amplification at once).
    @Test func bombsFailOrStayBounded() throws {
        var entities = "<!ENTITY a0 \"lollollollollollol\">"
        for i in 1...12 { entities += "<!ENTITY a\(i) \"" + String(repeating: "&a\(i - 1);", count: 10) + "\">" }
        let laughs = Data(("<?xml version=\"1.0\"?><!DOCTYPE svg [\(entities)]>"
            + "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100\" height=\"100\"><text y=\"50\">&a12;</text></svg>").utf8)
        var uses = "<defs><rect id=\"u0\" width=\"1\" height=\"1\"/>"
        for i in 1...12 { uses += "<g id=\"u\(i)\">" + String(repeating: "<use href=\"#u\(i - 1)\"/>", count: 10) + "</g>" }
        uses += "</defs><use href=\"#u12\"/>"
        for (name, data, limit) in [("entities", laughs, 2.0), ("use", Self.svg(uses), 15.0)] {
            let memory = DecodeMemory(limit: 1 << 30)
            let start = Date()
            let result = Result { try SVGCoder().decode(data, options: DecodeOptions(memory: memory)) }
            let seconds = Date().timeIntervalSince(start)
            print("SVG bomb \(name): \(String(format: "%.2f", seconds)) s, \(result.map { "\($0.size)" })")
            #expect(seconds < limit, "\(name) took \(seconds) s")
            guard case .failure(let error) = result, case .corrupt(format: "SVG", _) = error as? DecodeError else {
                Issue.record("\(name): \(result)")
                continue
            }
        }
    }

    @Test func tooLargeIsRefusedBeforeRendering() throws {
        let memory = DecodeMemory(limit: 1 << 30)
        let big = Self.svg("<rect width=\"10\" height=\"10\"/>", width: 2000, height: 2000)
        #expect(throws: DecodeError.tooLarge(width: 2000, height: 2000)) {
            try ImageCoders.decode(big, options: DecodeOptions(pixelLimit: 1_000_000, memory: memory))
        }
        #expect(memory.peak == 0)
        // A declared size past the largest side is drawn at it (aspect kept).
        let huge = try ImageCoders.decode(Self.svg("", width: 100_000, height: 50_000), options: DecodeOptions(targetSize: PixelSize(width: 10, height: 10)))
        #expect(huge.sourceSize == PixelSize(width: 4096, height: 2048))
        #expect(huge.size == PixelSize(width: 10, height: 5))
    }

    @Test func garbageIsCorrupt() {
        #expect {
            try ImageCoders.decode(Data("<svg><g></svg".utf8))
        } throws: { error in
            guard case .corrupt(format: "SVG", let reason) = error as? DecodeError else { return false }
            return !reason.isEmpty && reason.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x7F }
        }
    }

    @Test func theRegistryListsSVGAfterGIF() throws {
        let coder = ImageCoderRegistry.coder(for: .svg)
        #expect(coder?.mediaType == "image/svg+xml")
        #expect(coder?.capabilities == [.scaledDecode, .vector])
        #expect(ImageCoderRegistry.acceptHeader.contains("image/gif,image/svg+xml,"))
        _ = try ImageCoders.decode(try Reference.data("svg/shapes.svg"))  // loads librsvg: its version is known from then on
        #expect(CodecLibraries.versions.contains { $0.name == "librsvg" && $0.version.hasPrefix("2.") })
    }
}
