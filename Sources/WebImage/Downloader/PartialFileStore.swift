import Foundation

/// Partial bodies as files in one directory, one per URL (named by the SHA-256 of the URL, as the
/// disk cache names its entries), within a byte budget counted on disk (oldest modification first
/// dropped). A file holds a small versioned header (the URL, the validator, the total length) and
/// the bytes. A corrupt, truncated or foreign file is ignored and deleted. Disk errors (an
/// unwritable directory, a full disk) only mean "not kept": nothing throws, nothing is reported.
/// The directory passes the disk cache's own check (`DiskCache.prepareDirectory`: not a symbolic
/// link, owned by this user, 0700) before every write, and files are created 0600.
///
/// Writes and trims run on the owner's serial queue; `read` and `remove` on any thread.
struct PartialFileStore: Sendable {
    static let fileExtension = "partial"
    /// "SDGP" + format version 1.
    static let magic: [UInt8] = Array("SDGP".utf8) + [1]
    /// Magic, URL length (UInt32), validator length (UInt32), total length (Int64), byte count (Int64).
    static let headerSize = magic.count + 4 + 4 + 8 + 8

    let directory: URL
    let budget: Int

    func fileURL(for url: URL) -> URL {
        directory.appendingPathComponent(DiskCache.fileName(forKey: url.removingCredentials.absoluteString, extension: Self.fileExtension))
    }

    /// Writes `partial` (atomically: a temp file renamed), then drops the oldest files until within
    /// budget. Failures leave nothing behind.
    func write(_ partial: PartialDownload, for url: URL) {
        let file = fileURL(for: url)
        // The folder as the disk cache's own: ours, 0700, not a planted link (else nothing is kept).
        do { try DiskCache.prepareDirectory(directory.path) } catch { return }
        let temp = file.path + ".tmp-\(UInt32.random(in: .min ... .max))"
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        let code = Self.encode(partial, url: url).withUnsafeBytes { POSIXFile.writeAll(fd, $0) }
        close(fd)
        guard code == 0, rename(temp, file.path) == 0 else {
            unlink(temp)
            return
        }
        trim(keeping: file.lastPathComponent)
    }

    /// Reads and deletes the file kept for `url`; nil when there is none or it is not a valid partial of `url`.
    func read(_ url: URL) -> PartialDownload? {
        let file = fileURL(for: url)
        guard let contents = try? Data(contentsOf: file) else { return nil }
        unlink(file.path)
        guard let decoded = Self.decode(contents), decoded.url == url.removingCredentials.absoluteString else { return nil }
        return decoded.partial
    }

    func remove(_ url: URL) { unlink(fileURL(for: url).path) }

    /// Deletes every partial file.
    func removeAll() {
        for file in files() { unlink(file.url.path) }
    }

    /// The partial files, oldest first, with their sizes.
    func files() -> [(url: URL, size: Int, modified: Date)] {
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey, .isRegularFileKey]
        let names = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: keys)) ?? []
        return names.compactMap { file -> (url: URL, size: Int, modified: Date)? in
            guard file.pathExtension == Self.fileExtension, let values = try? file.resourceValues(forKeys: Set(keys)),
                  values.isRegularFile == true else { return nil }
            return (file, values.fileSize ?? 0, values.contentModificationDate ?? .distantPast)
        }.sorted { $0.modified < $1.modified }
    }

    /// The URLs of the valid partial files, oldest first (tests, diagnostics).
    func urls() -> [URL] {
        files().compactMap { file in
            (try? Data(contentsOf: file.url)).flatMap(Self.decode).flatMap { URL(string: $0.url) }
        }
    }

    /// Drops the oldest files (never `newest`, unless it alone is over budget) until the sizes fit.
    private func trim(keeping newest: String) {
        var files = files()
        var total = files.reduce(0) { $0 + $1.size }
        if let index = files.firstIndex(where: { $0.url.lastPathComponent == newest }) {
            let kept = files.remove(at: index)
            files.append(kept)
        }
        for file in files where total > budget {
            unlink(file.url.path)
            total -= file.size
        }
    }

    static func encode(_ partial: PartialDownload, url: URL) -> Data {
        let urlBytes = Data(url.removingCredentials.absoluteString.utf8), validator = Data(partial.validator.utf8)
        var data = Data(magic)
        data.reserveCapacity(headerSize + urlBytes.count + validator.count + partial.data.count)
        append(UInt32(urlBytes.count), to: &data)
        append(UInt32(validator.count), to: &data)
        append(UInt64(partial.totalLength), to: &data)
        append(UInt64(partial.data.count), to: &data)
        data += urlBytes
        data += validator
        data += partial.data
        return data
    }

    /// The URL and partial a file holds; nil for anything but a well-formed, complete file.
    static func decode(_ contents: Data) -> (url: String, partial: PartialDownload)? {
        let bytes = [UInt8](contents.prefix(headerSize))
        guard bytes.count == headerSize, Array(bytes.prefix(magic.count)) == magic else { return nil }
        var offset = magic.count
        let urlCount = Int(read(UInt32.self, bytes, &offset)), validatorCount = Int(read(UInt32.self, bytes, &offset))
        let total = read(UInt64.self, bytes, &offset), count = read(UInt64.self, bytes, &offset)
        guard urlCount > 0, validatorCount > 0, count > 0, count < total, total <= UInt64(Int64.max),
              UInt64(contents.count) == UInt64(headerSize + urlCount + validatorCount) + count else { return nil }
        let start = contents.startIndex + headerSize
        guard let url = String(data: contents[start ..< start + urlCount], encoding: .utf8),
              let validator = String(data: contents[start + urlCount ..< start + urlCount + validatorCount], encoding: .utf8)
        else { return nil }
        let body = Data(contents[(start + urlCount + validatorCount)...])
        return (url, PartialDownload(data: body, validator: validator, totalLength: Int64(total)))
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to data: inout Data) {
        withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }

    private static func read<T: FixedWidthInteger>(_: T.Type, _ bytes: [UInt8], _ offset: inout Int) -> T {
        var value = T.zero
        for index in 0 ..< MemoryLayout<T>.size { value |= T(bytes[offset + index]) << (8 * index) }
        offset += MemoryLayout<T>.size
        return value
    }
}
