import CVTerm
import TerminalGraphics

/// kitty graphics (`ESC _ G keys ; payload ESC \`): transmit (`a=t`, chunked with `m=1`; an
/// animation's further frames `a=f` and its control `a=a`, checked only for their image), put
/// (`a=p`), transmit-and-put (`a=T`), delete (`a=d` with `d=a/A/i/I`), with kitty 0.26's semantics:
/// a put of an image it does not hold fails (ENOENT, a diagnostic) and shows nothing; an uppercase
/// delete frees the image's data and also that of every image without a placement at that moment.
extension TerminalModel {
    func applicationCommand(_ body: [UInt8]) {
        guard body.first == UInt8(ascii: "G"), kind.showsKitty || kind.showsPlaceholders else { return }
        let content = body.dropFirst()
        let semicolon = content.firstIndex(of: UInt8(ascii: ";")) ?? content.endIndex
        var keys: [String: String] = [:]
        for pair in String(decoding: content[content.startIndex..<semicolon], as: UTF8.self).split(separator: ",") {
            let kv = pair.split(separator: "=", maxSplits: 1)
            if kv.count == 2 { keys[String(kv[0])] = String(kv[1]) }
        }
        if let pending = kittyPending, keys["a"] == nil, keys["i"] == nil {
            // A continuation chunk of the transmission in progress.
            if keys["m"] != "1" { kittyPending = nil; finishTransmission(pending) }
            return
        }
        switch keys["a"] ?? "t" {
        case "t", "T", "f":
            if keys["m"] == "1" { kittyPending = keys } else { finishTransmission(keys) }
        case "a":
            // Animation control: the model shows image identities, not frames; it checks the image exists.
            if let id = UInt32(keys["i"] ?? ""), kittyImages[id] == nil {
                diagnostics.append("ENOENT: animation control for non-existent image i=\(id)")
            }
        case "p": put(keys)
        case "d": delete(keys)
        case "q": break
        default: diagnostics.append("kitty: unsupported action a=\(keys["a"] ?? "")")
        }
    }

    private func finishTransmission(_ keys: [String: String]) {
        guard let id = UInt32(keys["i"] ?? "") else {
            diagnostics.append("kitty: transmission without an image id")
            return
        }
        if keys["a"] == "f" {
            // A further frame of an animation (`a=f`): the image must exist; what it shows is its identity.
            if kittyImages[id] == nil { diagnostics.append("ENOENT: frame for non-existent image i=\(id)") }
            return
        }
        kittyImages[id] = (Int(keys["s"] ?? "") ?? 0, Int(keys["v"] ?? "") ?? 0)
        if keys["a"] == "T" { put(keys) }
    }

    private func put(_ keys: [String: String]) {
        guard let id = UInt32(keys["i"] ?? "") else {
            diagnostics.append("kitty: put without an image id")
            return
        }
        guard let image = kittyImages[id] else {
            diagnostics.append("ENOENT: Put command refers to non-existent image i=\(id) at \(cursor.column),\(cursor.row)")
            return
        }
        let placement = UInt32(keys["p"] ?? "") ?? 0
        let columns = Int(keys["c"] ?? "") ?? (image.width + cellWidth - 1) / cellWidth
        let rows = Int(keys["r"] ?? "") ?? (image.height + cellHeight - 1) / cellHeight
        if keys["U"] == "1" {
            // A virtual placement: shown only where placeholder cells name the image.
            kittyVirtual[id] = (columns, rows)
            return
        }
        // Putting with the id of an existing placement moves that placement.
        if placement != 0 { removeFragments { $0.image == .kitty(id) && $0.placement == placement } }
        place(.kitty(id), placement: placement, columns: columns, rows: rows)
    }

    private func delete(_ keys: [String: String]) {
        let what = keys["d"] ?? "a"
        let frees = what.uppercased() == what
        switch what.lowercased() {
        case "a":
            removeFragments { _ in true }
            if frees { kittyImages.removeAll(); kittyVirtual.removeAll() }
        case "i":
            guard let id = UInt32(keys["i"] ?? "") else { return }
            let placement = UInt32(keys["p"] ?? "")
            removeFragments { $0.image == .kitty(id) && (placement == nil || $0.placement == placement) }
            if placement == nil || frees { kittyVirtual[id] = nil }
            if frees { kittyImages[id] = nil }
        default:
            diagnostics.append("kitty: unsupported delete d=\(what)")
            return
        }
        if frees && kind == .kitty {
            // kitty 0.26: any freeing delete also frees every image that has no placement now.
            let placed = Set(layer.compactMap { fragment -> UInt32? in
                if case .kitty(let id)? = fragment?.image { return id }
                return nil
            })
            kittyImages = kittyImages.filter { placed.contains($0.key) }
        }
    }

    private func removeFragments(where matches: (ImageFragment) -> Bool) {
        for index in layer.indices { if let fragment = layer[index], matches(fragment) { layer[index] = nil } }
    }
}

/// Unicode placeholders (`TerminalKind.showsPlaceholders`): a text cell holding U+10EEEE names a
/// cell of an image by its foreground colour (the id's low 24 bits), its first combining mark (the
/// row), its second (the column) and a third (the id's high byte), the marks being kitty's
/// diacritics (`KittyPlaceholders.diacritics`, checked against kitty's rule in its own tests).
extension TerminalModel {
    /// The image fragment a placeholder cell at (column, row) shows: nil when the cell is no
    /// placeholder, or names an image the terminal holds no virtual placement of.
    func placeholderFragment(column: Int, row: Int) -> ImageFragment? {
        guard kind.showsPlaceholders else { return nil }
        let cell = cvt_cell_at(terminal, Int32(row), Int32(column))
        guard cell.chars.0 == 0x10EEEE, cell.foreground < 0x100_0000 else { return nil }
        func index(_ mark: UInt32) -> Int? { mark == 0 ? nil : Self.placeholderMarks[PlaceholderMarks.original[mark] ?? mark] }
        guard let dy = index(cell.chars.1), let dx = index(cell.chars.2) else { return nil }
        let high = index(cell.chars.3) ?? 0
        let id = UInt32(high) << 24 | cell.foreground
        guard kittyImages[id] != nil, let virtual = kittyVirtual[id], dx < virtual.columns, dy < virtual.rows else {
            let problem = "placeholder at \(column),\(row) names kitty image \(id), which has no virtual placement"
            if !diagnostics.contains(problem) { diagnostics.append(problem) }
            return nil
        }
        return ImageFragment(image: .kitty(id), dx: dx, dy: dy)
    }

    static let placeholderMarks: [UInt32: Int] = Dictionary(uniqueKeysWithValues: KittyPlaceholders.diacritics.enumerated().map { ($1, $0) })
}
