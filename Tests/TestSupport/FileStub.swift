import Foundation
import WebImage

/// Builds stubs for files served from a directory, with validators derived from the file.
public enum FileStub {
    static func make(directory: URL, name: String) -> StubResponse {
        guard !name.isEmpty, !name.split(separator: "/").contains(".."),
              let data = try? Data(contentsOf: directory.appendingPathComponent(name)) else {
            return .status(404, body: "not found")
        }
        var stub = StubResponse.ok(data, contentType: HTTPDate.mediaType(ofFileNamed: name))
        let attributes = try? FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path)
        let modified = (attributes?[.modificationDate] as? Date) ?? Date(timeIntervalSince1970: 0)
        stub.etag = "\"\(data.count)-\(Int(modified.timeIntervalSince1970))\""
        stub.lastModified = HTTPDate.format(modified)
        return stub
    }
}
