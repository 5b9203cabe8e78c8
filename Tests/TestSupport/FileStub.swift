import Foundation

/// Builds stubs for files served from a directory, with validators derived from the file.
public enum FileStub {
    static func make(directory: URL, name: String) -> StubResponse {
        guard !name.isEmpty, !name.split(separator: "/").contains(".."),
              let data = try? Data(contentsOf: directory.appendingPathComponent(name)) else {
            return .status(404, body: "not found")
        }
        var stub = StubResponse.ok(data, contentType: contentType(for: name))
        let attributes = try? FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path)
        let modified = (attributes?[.modificationDate] as? Date) ?? Date(timeIntervalSince1970: 0)
        stub.etag = "\"\(data.count)-\(Int(modified.timeIntervalSince1970))\""
        stub.lastModified = httpDate(modified)
        return stub
    }

    static func contentType(for name: String) -> String {
        switch (name as NSString).pathExtension.lowercased() {
        case "jpg", "jpeg": return "image/jpeg"
        case "png": return "image/png"
        case "gif": return "image/gif"
        case "webp": return "image/webp"
        case "html": return "text/html"
        default: return "application/octet-stream"
        }
    }

    /// `date` as an IMF-fixdate (RFC 9110 §5.6.7).
    public static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}
