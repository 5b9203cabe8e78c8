/// What decoding a HEIF file's primary image decodes, read from the boxes alone: the primary itself,
/// the ingredients of a derived image (`dimg`: a grid's tiles) and each image's alpha (`auxl`), and
/// theirs in turn. For the checks libheif 1.15 needs before it decodes:
///
/// - a grid (ISO/IEC 23008-12 6.6.2.3, item type `grid`) has its canvas allocated from its own
///   descriptor (rows, columns, output width and height in the item's data) within only libheif's
///   per-side limit: a 3 KB file made it ask for 454 MB (fuzz);
/// - an AV1 image of no bytes makes libheif's dav1d plugin leak the empty buffer it hands dav1d,
///   and dav1d print its refusal on stderr (fuzz).
///
/// The boxes are read as libheif 1.15 reads them (the first `pitm`, `iloc`, `idat`, `iinf` and `iref`
/// of a `meta`, the first `infe` and `iloc` entry of an item), but every top-level `meta` is read
/// (libheif keeps the last), and every `dimg` and `auxl` reference counts (libheif decodes the first
/// `dimg` list of a derived image and each image's alpha; depth maps are counted too).
struct HEIFDecodedItems: Equatable, Sendable {
    /// A grid item's descriptor: `rows` × `columns` tiles on a `canvas`.
    struct Descriptor: Equatable, Sendable {
        var rows: Int
        var columns: Int
        var canvas: PixelSize
        var tiles: Int { rows * columns }
    }

    /// One grid that decoding the primary image decodes; `descriptor` is nil when the grid's data is
    /// missing (no `iloc` entry, an extent outside the file or the `idat`, a construction method libheif
    /// does not read) or shorter than its fields.
    struct Grid: Equatable, Sendable {
        var item: Int
        var descriptor: Descriptor?
    }

    /// Every grid decoded with the primary image (the primary itself, its ingredients and its alpha,
    /// and theirs in turn), in the order found.
    var grids: [Grid] = []
    /// How many images decoding the primary image decodes, an image used twice counted twice (a grid's
    /// tiles, nested grids' tiles, alpha images); saturates at `Int.max`. 1 for a plain coded image.
    var decodedImages = 0
    /// The coded images decoded (`hvc1`, `av01`) whose data is there and holds no byte: no extent, or
    /// extents of length 0 (libheif reads 0 as 0). Data outside the file is left to libheif (a cut
    /// download).
    var imagesWithoutData: [Int] = []
}

extension HEIFDecodedItems {
    /// Reads `bytes`: nothing found (no grids, no decoded images) when it has no top-level `meta` with
    /// a primary item.
    init(_ bytes: UnsafeRawBufferPointer) {
        ISOBMFFBoxes.forEachBox(in: 0..<bytes.count, of: bytes) { type, body in
            guard type == "meta", body.count >= 4 else { return }
            let meta = Meta(bytes, (body.lowerBound + 4)..<body.upperBound)
            guard let primary = meta.primary else { return }
            let reached = meta.reached(from: primary)
            grids += reached.filter { meta.types[$0] == "grid" }.map { Grid(item: $0, descriptor: meta.descriptor(of: $0)) }
            imagesWithoutData += reached.filter { ["hvc1", "av01"].contains(meta.types[$0]) && meta.dataLength(of: $0) == 0 }
            decodedImages = max(decodedImages, meta.decodedImages(from: primary))
        }
    }

    /// The boxes of one `meta` that say what decoding an item decodes.
    fileprivate struct Meta {
        let bytes: UnsafeRawBufferPointer
        var primary: Int?
        var types: [Int: String] = [:]
        var locations: [Int: Location] = [:]
        var idat: Range<Int>?
        /// Item → the items decoding it decodes (its `dimg` ingredients, the alpha whose `auxl` names it).
        var uses: [Int: [Int]] = [:]

        struct Location {
            var constructionMethod = 0
            var baseOffset = 0
            var extents: [(offset: Int, length: Int)] = []
        }

        init(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) {
            self.bytes = bytes
            var seen = Set<String>()
            ISOBMFFBoxes.forEachBox(in: range, of: bytes) { type, body in
                guard seen.insert(type).inserted else { return }  // libheif reads a meta's first box of a type
                switch type {
                case "pitm":
                    var r = Reader(bytes, body)
                    guard let version = r.read(1), r.read(3) != nil else { return }
                    primary = r.read(version == 0 ? 2 : 4)
                case "iinf": readItemTypes(body)
                case "iloc": readLocations(body)
                case "idat": idat = body
                case "iref": ISOBMFFBoxes.addDecodeUses(iref: body, of: bytes, to: &uses)
                default: break
                }
            }
        }

        /// `infe` versions 2 and 3 (the ones with an item type); the first for an item counts. An
        /// `iinf` whose count is 0 has no entries for libheif.
        private mutating func readItemTypes(_ body: Range<Int>) {
            var r = Reader(bytes, body)
            guard let version = r.read(1), r.read(3) != nil, let count = r.read(version == 0 ? 2 : 4), count > 0 else { return }
            ISOBMFFBoxes.forEachBox(in: r.offset..<body.upperBound, of: bytes) { type, entry in
                guard type == "infe" else { return }
                var e = Reader(bytes, entry)
                guard let version = e.read(1), version >= 2, e.read(3) != nil,
                      let item = e.read(version == 2 ? 2 : 4), e.read(2) != nil, e.offset + 4 <= entry.upperBound else { return }
                let itemType = String(decoding: (0..<4).map { bytes[e.offset + $0] }, as: UTF8.self)
                if types[item] == nil { types[item] = itemType }
            }
        }

        /// `iloc` versions 0, 1 and 2, fields of 4 or 8 bytes (libheif reads no other size: a field
        /// of another size is 0); the first entry for an item counts.
        private mutating func readLocations(_ body: Range<Int>) {
            var r = Reader(bytes, body)
            guard let version = r.read(1), r.read(3) != nil, let sizes = r.read(2) else { return }
            let offsetSize = sizes >> 12 & 0xF, lengthSize = sizes >> 8 & 0xF, baseOffsetSize = sizes >> 4 & 0xF
            let indexSize = version > 1 ? sizes & 0xF : 0
            func field(_ size: Int) -> Int? { size == 4 || size == 8 ? r.read(size) : 0 }
            // libheif refuses an iloc of over 20,000 items, or an item of over 32 extents.
            guard let count = r.read(version < 2 ? 2 : 4), count <= 20_000 else { return }
            for _ in 0..<count {
                guard let item = r.read(version < 2 ? 2 : 4) else { return }
                var location = Location()
                if version >= 1 {
                    guard let method = r.read(2) else { return }
                    location.constructionMethod = method & 0xF
                }
                guard r.read(2) != nil, let base = field(baseOffsetSize), let extents = r.read(2), extents <= 32 else { return }
                location.baseOffset = base
                for _ in 0..<extents {
                    guard field(indexSize) != nil, let offset = field(offsetSize), let length = field(lengthSize) else { return }
                    location.extents.append((offset, length))
                }
                if locations[item] == nil { locations[item] = location }
            }
        }

        /// `primary` and what decoding it decodes, each once, in the order found.
        func reached(from primary: Int) -> [Int] {
            var found: [Int] = [], visited = Set<Int>(), next = [primary]
            while let item = next.popLast() {
                guard visited.insert(item).inserted else { continue }
                found.append(item)
                next += uses[item] ?? []
            }
            return found
        }

        /// The images decoding `item` decodes, itself included, with repetition (an item on a loop
        /// counts once there: loops are refused before this matters).
        func decodedImages(from item: Int) -> Int {
            var counted: [Int: Int] = [:], visiting = Set<Int>()
            func count(_ item: Int) -> Int {
                if let known = counted[item] { return known }
                guard visiting.insert(item).inserted else { return 1 }
                var total = 1
                for used in uses[item] ?? [] {
                    let (sum, overflow) = total.addingReportingOverflow(count(used))
                    total = overflow ? .max : sum
                }
                visiting.remove(item)
                counted[item] = total
                return total
            }
            return count(item)
        }

        /// The grid descriptor in `item`'s data (construction method 0: in the file; 1: in `idat`),
        /// or nil when the data is missing or shorter than the descriptor's fields.
        func descriptor(of item: Int) -> Descriptor? {
            guard let data = leadingBytes(of: item, count: 12), data.count >= 8 else { return nil }
            let wide = data[1] & 1 == 1
            guard !wide || data.count >= 12 else { return nil }
            func u(_ at: Int, _ width: Int) -> Int { (0..<width).reduce(0) { $0 << 8 | Int(data[at + $1]) } }
            let width = wide ? u(4, 4) : u(4, 2), height = wide ? u(8, 4) : u(6, 2)
            return Descriptor(rows: Int(data[2]) + 1, columns: Int(data[3]) + 1, canvas: PixelSize(width: width, height: height))
        }

        /// How many bytes an item's data has, nil when it has no `iloc` entry, a construction method
        /// libheif does not read, or an extent outside the file (method 0) or the `idat` (method 1).
        func dataLength(of item: Int) -> Int? {
            extents(of: item)?.reduce(0) { $0 + $1.count }
        }

        /// The first `count` bytes of an item's data (its extents one after the other), nil as
        /// `dataLength`.
        private func leadingBytes(of item: Int, count: Int) -> [UInt8]? {
            guard let extents = extents(of: item) else { return nil }
            var data: [UInt8] = []
            for extent in extents where data.count < count {
                data += extent.prefix(count - data.count).map { bytes[$0] }
            }
            return data
        }

        /// An item's extents as ranges of `bytes`, nil as `dataLength`.
        private func extents(of item: Int) -> [Range<Int>]? {
            guard let location = locations[item] else { return nil }
            let source: Range<Int>
            switch location.constructionMethod {
            case 0: source = 0..<bytes.count
            case 1:
                guard let idat else { return nil }
                source = idat
            default: return nil
            }
            var ranges: [Range<Int>] = []
            for extent in location.extents {
                let (start, o1) = location.baseOffset.addingReportingOverflow(extent.offset)
                let (begin, o2) = source.lowerBound.addingReportingOverflow(start)
                let (end, o3) = begin.addingReportingOverflow(extent.length)
                guard !o1, !o2, !o3, end <= source.upperBound else { return nil }
                ranges.append(begin..<end)
            }
            return ranges
        }
    }

    /// Big-endian fields of 1 to 8 bytes within a range, nil past its end (a 64-bit value over
    /// `Int.max` reads as `Int.max`).
    fileprivate struct Reader {
        let bytes: UnsafeRawBufferPointer
        var offset: Int
        let end: Int

        init(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) {
            self.bytes = bytes
            offset = range.lowerBound
            end = range.upperBound
        }

        mutating func read(_ width: Int) -> Int? {
            guard end - offset >= width else { return nil }
            let value = (0..<width).reduce(UInt64(0)) { $0 << 8 | UInt64(bytes[offset + $1]) }
            offset += width
            return Int(clamping: value)
        }
    }
}
