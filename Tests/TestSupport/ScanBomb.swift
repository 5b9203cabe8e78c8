import Foundation

/// Progressive JPEG scan bombs: a plain grey picture encoded by `cjpeg -progressive`, its last scan
/// then repeated. libjpeg decodes every repeat (a warning, not an error), and each walks every block of
/// the image: a few hundred bytes per scan buy milliseconds of decoding (issue 21: 1.1 MB of a
/// 10000×10000 picture and 5000 scans kept a decoder busy for 45 s).
public enum ScanBomb {
    /// A `width`×`height` grey progressive JPEG whose last scan appears `repeats` more times.
    public static func make(width: Int, height: Int, repeats: Int) throws -> Data {
        let folder = try Fixtures.temporaryDirectory("scan-bomb")
        defer { try? FileManager.default.removeItem(at: folder) }
        let pgm = folder.appendingPathComponent("grey.pgm"), jpeg = folder.appendingPathComponent("grey.jpg")
        var picture = Data("P5 \(width) \(height) 255\n".utf8)
        picture.append(Data(repeating: 128, count: width * height))
        try picture.write(to: pgm)
        let result = try ChildProcess.run("cjpeg", ["-grayscale", "-progressive", "-outfile", jpeg.path, pgm.path], timeout: 60)
        guard result.status == 0 else { throw ChildProcess.SpawnError(description: "cjpeg: \(result.err)") }
        return repeatingLastScan(of: try Data(contentsOf: jpeg), times: repeats)
    }

    /// `jpeg` with its last scan (SOS segment and entropy data, up to EOI) repeated `times` more.
    public static func repeatingLastScan(of jpeg: Data, times: Int) -> Data {
        let bytes = [UInt8](jpeg)
        guard bytes.count > 4, bytes[bytes.count - 2] == 0xFF, bytes[bytes.count - 1] == 0xD9,
              let sos = (0..<(bytes.count - 1)).last(where: { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA }) else { return jpeg }
        let end = bytes.count - 2
        var out = Data(bytes[..<end])
        let scan = Data(bytes[sos..<end])
        for _ in 0..<times { out.append(scan) }
        out.append(contentsOf: [0xFF, 0xD9])
        return out
    }
}
