/// kitty graphics (`ESC _ G keys ; payload ESC \`): transmit (`a=t`, chunked with `m=1`), put
/// (`a=p`), transmit-and-put (`a=T`), delete (`a=d` with `d=a/A/i/I`), with kitty 0.26's semantics:
/// a put of an image it does not hold fails (ENOENT, a diagnostic) and shows nothing; an uppercase
/// delete frees the image's data and also that of every image without a placement at that moment.
extension TerminalModel {
    func applicationCommand(_ body: [UInt8]) {
        guard body.first == UInt8(ascii: "G"), kind.showsKitty else { return }
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
        case "t", "T":
            if keys["m"] == "1" { kittyPending = keys } else { finishTransmission(keys) }
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
            if frees { kittyImages.removeAll() }
        case "i":
            guard let id = UInt32(keys["i"] ?? "") else { return }
            let placement = UInt32(keys["p"] ?? "")
            removeFragments { $0.image == .kitty(id) && (placement == nil || $0.placement == placement) }
            if frees { kittyImages[id] = nil }
        default:
            diagnostics.append("kitty: unsupported delete d=\(what)")
            return
        }
        if frees {
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
