import Testing
@testable import ImageCodecs

/// `HEIFDecodedItems`: what decoding a HEIF file's primary image decodes (grids and their canvases,
/// images without data), read from hand-built boxes (the fields libheif 1.15 reads, in each layout
/// the format allows).
@Suite struct HEIFDecodedItemsTests {
    typealias Descriptor = HEIFDecodedItems.Descriptor

    @Test func aPrimaryGridsDescriptorInIdat() {
        // iloc version 1, construction method 1: the 8 bytes of a 16-bit descriptor in idat, after 3 others.
        let file = HEIFFile(
            items: [(1, "grid")] + (2...7).map { ($0, "hvc1") },
            references: [("dimg", 1, Array(2...7))],
            iloc: .init(version: 1, items: [.init(item: 1, method: 1, extents: [(3, 8)])]),
            idat: [9, 9, 9] + HEIFFile.descriptor(rows: 2, columns: 3, width: 300, height: 200))
        let grids = file.grids()
        #expect(grids.grids == [.init(item: 1, descriptor: Descriptor(rows: 2, columns: 3, canvas: PixelSize(width: 300, height: 200)))])
        #expect(grids.decodedImages == 7)
    }

    @Test func aWideDescriptorInTheFileAfterABaseOffset() {
        // iloc version 0 (method 0 implied), 4-byte base offset and fields: a 32-bit descriptor split
        // over two extents at the end of the file.
        let descriptor = HEIFFile.descriptor(rows: 1, columns: 1, width: 70_000, height: 3, wide: true)
        let file = HEIFFile(
            items: [(1, "grid"), (2, "hvc1")], references: [("dimg", 1, [2])],
            iloc: .init(version: 0, baseOffsetSize: 4, items: [.init(item: 1, base: .trailing(2), extents: [(0, 5), (5, 7)])]),
            trailing: [0xEE, 0xEE] + descriptor)
        #expect(file.grids().grids == [.init(item: 1, descriptor: Descriptor(rows: 1, columns: 1, canvas: PixelSize(width: 70_000, height: 3)))])
    }

    @Test func version2LocationsWith32BitItemsIndicesAnd64BitFields() {
        let file = HEIFFile(
            items: [(70_000, "grid"), (70_001, "hvc1")], references: [("dimg", 70_000, [70_001])], idWidth: 4,
            iloc: .init(version: 2, offsetSize: 8, lengthSize: 8, baseOffsetSize: 8, indexSize: 4,
                        items: [.init(item: 70_001, method: 0, extents: [(0, 1)]),
                                .init(item: 70_000, method: 0, base: .trailing(0), extents: [(0, 8)])]),
            trailing: HEIFFile.descriptor(rows: 16, columns: 16, width: 4096, height: 4096))
        let grids = file.grids()
        #expect(grids.grids == [.init(item: 70_000, descriptor: Descriptor(rows: 16, columns: 16, canvas: PixelSize(width: 4096, height: 4096)))])
        #expect(grids.grids.first?.descriptor?.tiles == 256)
    }

    /// libheif reads no field of a size other than 4 or 8: such a field is 0 (here the extent's
    /// offset, so the descriptor is read from the idat's start).
    @Test func aFieldOfAnotherSizeIsZero() {
        let file = HEIFFile(
            items: [(1, "grid")],
            iloc: .init(version: 1, offsetSize: 2, items: [.init(item: 1, method: 1, extents: [(99, 8)])]),
            idat: HEIFFile.descriptor(rows: 1, columns: 2, width: 10, height: 20))
        #expect(file.grids().grids.first?.descriptor == Descriptor(rows: 1, columns: 2, canvas: PixelSize(width: 10, height: 20)))
    }

    @Test func aMissingOrShortDescriptorIsNil() {
        let wide = HEIFFile.descriptor(rows: 1, columns: 1, width: 10, height: 10, wide: true)
        let cases: [(String, HEIFFile)] = [
            ("no iloc entry", HEIFFile(items: [(1, "grid")], iloc: .init(version: 1, items: []), idat: wide)),
            ("a wide descriptor cut to 8 bytes", HEIFFile(items: [(1, "grid")], iloc: .init(version: 1, items: [.init(item: 1, method: 1, extents: [(0, 8)])]), idat: wide)),
            ("7 bytes", HEIFFile(items: [(1, "grid")], iloc: .init(version: 1, items: [.init(item: 1, method: 1, extents: [(0, 7)])]), idat: wide)),
            ("past the idat", HEIFFile(items: [(1, "grid")], iloc: .init(version: 1, items: [.init(item: 1, method: 1, extents: [(8, 8)])]), idat: wide)),
            ("no idat", HEIFFile(items: [(1, "grid")], iloc: .init(version: 1, items: [.init(item: 1, method: 1, extents: [(0, 8)])]))),
            ("past the file", HEIFFile(items: [(1, "grid")], iloc: .init(version: 1, baseOffsetSize: 4, items: [.init(item: 1, method: 0, base: .trailing(8), extents: [(0, 8)])]), trailing: wide)),
            ("construction method 2", HEIFFile(items: [(1, "grid")], iloc: .init(version: 1, items: [.init(item: 1, method: 2, extents: [(0, 12)])]), idat: wide)),
        ]
        for (name, file) in cases {
            #expect(file.grids().grids == [.init(item: 1, descriptor: nil)], "\(name)")
        }
    }

    /// libheif decodes a grid's tiles and each image's alpha (which a fuzzed file made a grid of
    /// 11520×19712 under a 77×45 primary): those grids count, a grid the primary does not use does not.
    @Test func gridsTheDecodeReachesThroughTilesAndAlpha() {
        let file = HEIFFile(
            items: [(1, "hvc1"), (2, "grid"), (3, "grid"), (4, "hvc1"), (5, "grid")],
            references: [("auxl", 2, [1]), ("dimg", 2, [3, 3]), ("dimg", 3, [4])],
            iloc: .init(version: 1, items: (2...5).map { .init(item: $0, method: 1, extents: [(8 * ($0 - 2), 8)]) }),
            idat: (2...5).flatMap { HEIFFile.descriptor(rows: 1, columns: 1, width: $0, height: $0) })
        let grids = file.grids()
        #expect(Set(grids.grids.map(\.item)) == [2, 3])
        #expect(grids.grids.first { $0.item == 3 }?.descriptor?.canvas == PixelSize(width: 3, height: 3))
        #expect(grids.decodedImages == 6)  // 1, its alpha 2, 2's tiles 3 and 3 again, each with its tile 4
    }

    @Test func aTileNamedAThousandTimesIsAThousandDecodes() {
        let file = HEIFFile(
            items: [(1, "grid"), (2, "hvc1")], references: [("dimg", 1, Array(repeating: 2, count: 1000))],
            iloc: .init(version: 1, items: [.init(item: 1, method: 1, extents: [(0, 8)])]),
            idat: HEIFFile.descriptor(rows: 25, columns: 40, width: 64, height: 64))
        #expect(file.grids().decodedImages == 1001)
    }

    @Test func aPlainImageIsNoGrid() {
        let file = HEIFFile(items: [(1, "hvc1")], iloc: .init(version: 1, items: [.init(item: 1, method: 0, extents: [(0, 8)])]))
        #expect(file.grids() == HEIFDecodedItems(grids: [], decodedImages: 1))
        #expect(HEIFFile.grids(of: [0, 0, 0, 8] + Array("ftyp".utf8)) == HEIFDecodedItems(grids: [], decodedImages: 0))
    }

    /// A coded image whose data is there and empty (no extent, or extents of length 0) is found; one
    /// whose data lies past the file's end (a cut download) is left to libheif.
    @Test func codedImagesWithoutData() {
        func file(_ extents: [(Int, Int)], alpha: [(Int, Int)] = [(0, 4)]) -> HEIFFile {
            HEIFFile(items: [(1, "av01"), (2, "hvc1")], references: [("auxl", 2, [1])],
                     iloc: .init(version: 1, baseOffsetSize: 4, items: [.init(item: 1, base: .trailing(0), extents: extents),
                                                                       .init(item: 2, base: .trailing(0), extents: alpha)]),
                     trailing: [1, 2, 3, 4])
        }
        #expect(file([]).grids().imagesWithoutData == [1])
        #expect(file([(0, 0), (2, 0)]).grids().imagesWithoutData == [1])
        #expect(file([(0, 4)], alpha: []).grids().imagesWithoutData == [2])
        #expect(file([(0, 4)]).grids().imagesWithoutData == [])
        #expect(file([(2, 0), (0, 5)]).grids().imagesWithoutData == [])  // past the end: libheif's to refuse
        #expect(file([(0, 4)]).grids().decodedImages == 2)
    }

    /// An `iinf` whose count is 0 has no entries for libheif: no item has a type.
    @Test func anItemInfoCountOfZeroNamesNoTypes() {
        var file = HEIFFile(items: [(1, "grid")], iloc: .init(version: 1, items: [.init(item: 1, method: 1, extents: [(0, 8)])]),
                            idat: HEIFFile.descriptor(rows: 1, columns: 1, width: 1, height: 1))
        file.itemCount = 0
        #expect(file.grids().grids.isEmpty)
    }

    /// A reference whose header has a 64-bit size (size field 1) has its IDs 8 bytes later, as
    /// libheif reads them.
    @Test func aReferenceWithA64BitSizeHeader() {
        let body: [UInt8] = HEIFFile.be(1, 4) + Array("dimg".utf8) + HEIFFile.be(30, 8) + HEIFFile.be(7, 2) + HEIFFile.be(1, 2) + HEIFFile.be(9, 2)
        let references = body.withUnsafeBytes { ISOBMFFBoxes.itemReferences(in: 0..<body.count, of: $0, idWidth: 2) }
        #expect(references.count == 1)
        #expect(references.first?.type == "dimg")
        #expect(references.first?.from == 7)
        #expect(references.first?.to == [9])
    }
}

/// A HEIF file built box by box: ftyp, a meta (hdlr, pitm, iinf, iref, iloc, idat), then `trailing`
/// bytes (what a method-0 location can point into: `Base.trailing(n)` is their n-th byte).
struct HEIFFile {
    var items: [(id: Int, type: String)]
    var references: [(type: String, from: Int, to: [Int])] = []
    var idWidth = 2
    var iloc: Location
    var idat: [UInt8]? = nil
    var trailing: [UInt8] = []
    var itemCount: Int? = nil

    enum Base { case absolute(Int), trailing(Int) }

    struct Location {
        var version: UInt8
        var offsetSize = 4, lengthSize = 4, baseOffsetSize = 0, indexSize = 0
        var items: [Entry]

        struct Entry {
            var item: Int
            var method = 0
            var base = Base.absolute(0)
            var extents: [(offset: Int, length: Int)]
        }
    }

    init(items: [(Int, String)], references: [(String, Int, [Int])] = [], idWidth: Int = 2, iloc: Location,
         idat: [UInt8]? = nil, trailing: [UInt8] = []) {
        self.items = items.map { ($0.0, $0.1) }
        self.references = references.map { ($0.0, $0.1, $0.2) }
        self.idWidth = idWidth
        self.iloc = iloc
        self.idat = idat
        self.trailing = trailing
    }

    static func be(_ value: Int, _ width: Int) -> [UInt8] { (0..<width).map { UInt8(truncatingIfNeeded: value >> (8 * (width - 1 - $0))) } }
    static func box(_ type: String, _ body: [UInt8]) -> [UInt8] { be(8 + body.count, 4) + Array(type.utf8) + body }
    static func fullBox(_ type: String, version: UInt8, flags: Int = 0, _ body: [UInt8]) -> [UInt8] {
        box(type, [version] + be(flags, 3) + body)
    }

    /// A grid descriptor: version 0, flags (bit 0: 32-bit sizes), rows − 1, columns − 1, width, height.
    static func descriptor(rows: Int, columns: Int, width: Int, height: Int, wide: Bool = false) -> [UInt8] {
        [0, wide ? 1 : 0, UInt8(rows - 1), UInt8(columns - 1)] + be(width, wide ? 4 : 2) + be(height, wide ? 4 : 2)
    }

    static func grids(of bytes: [UInt8]) -> HEIFDecodedItems { bytes.withUnsafeBytes { HEIFDecodedItems($0) } }

    func grids() -> HEIFDecodedItems { Self.grids(of: bytes()) }

    func bytes() -> [UInt8] {
        let head = Self.box("ftyp", Array("heic".utf8) + Self.be(0, 4) + Array("mif1heic".utf8))
        let start = head.count + meta(trailingAt: 0).count
        return head + meta(trailingAt: start) + trailing
    }

    private func meta(trailingAt start: Int) -> [UInt8] {
        let wide = idWidth == 4
        let hdlr = Self.fullBox("hdlr", version: 0, Self.be(0, 4) + Array("pict".utf8) + Self.be(0, 12) + [0])
        let pitm = Self.fullBox("pitm", version: wide ? 1 : 0, Self.be(items[0].id, idWidth))
        let infe = items.flatMap { Self.fullBox("infe", version: wide ? 3 : 2, Self.be($0.id, idWidth) + Self.be(0, 2) + Array($0.type.utf8) + [0]) }
        let iinf = Self.fullBox("iinf", version: 0, Self.be(itemCount ?? items.count, 2) + infe)
        let refs = references.flatMap { ref in
            Self.box(ref.type, Self.be(ref.from, idWidth) + Self.be(ref.to.count, 2) + ref.to.flatMap { Self.be($0, idWidth) })
        }
        let iref = Self.fullBox("iref", version: wide ? 1 : 0, refs)
        var children = hdlr + pitm + iinf + (references.isEmpty ? [] : iref) + location(trailingAt: start)
        if let idat { children += Self.box("idat", idat) }
        return Self.fullBox("meta", version: 0, children)
    }

    private func location(trailingAt start: Int) -> [UInt8] {
        let v = iloc.version, ids = v < 2 ? 2 : 4
        var body = Self.be(iloc.offsetSize << 12 | iloc.lengthSize << 8 | iloc.baseOffsetSize << 4 | (v > 1 ? iloc.indexSize : 0), 2)
        body += Self.be(iloc.items.count, ids)
        func field(_ value: Int, _ size: Int) -> [UInt8] { size == 4 || size == 8 ? Self.be(value, size) : [] }
        for entry in iloc.items {
            body += Self.be(entry.item, ids)
            if v >= 1 { body += Self.be(entry.method, 2) }
            body += Self.be(0, 2)
            switch entry.base {
            case .absolute(let offset): body += field(offset, iloc.baseOffsetSize)
            case .trailing(let offset): body += field(start + offset, iloc.baseOffsetSize)
            }
            body += Self.be(entry.extents.count, 2)
            for extent in entry.extents {
                if v > 1 { body += field(0, iloc.indexSize) }
                body += field(extent.offset, iloc.offsetSize) + field(extent.length, iloc.lengthSize)
            }
        }
        return Self.fullBox("iloc", version: v, body)
    }
}
