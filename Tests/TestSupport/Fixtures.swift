import Foundation

/// Locates the committed test fixtures (`Tests/Fixtures/…`, made by `scripts/make-fixtures`) and
/// the repository root, independent of the working directory the tests run in.
public enum Fixtures {
    /// The repository root (the folder holding Package.swift).
    public static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // TestSupport
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // root

    /// `Tests/Fixtures`.
    public static let directory: URL = repositoryRoot.appendingPathComponent("Tests/Fixtures")

    /// The URL of one fixture file.
    public static func url(_ name: String) -> URL { directory.appendingPathComponent(name) }

    /// The bytes of one fixture file.
    public static func data(_ name: String) throws -> Data { try Data(contentsOf: url(name)) }

    /// A fresh, empty temporary directory, unique to the caller.
    public static func temporaryDirectory(_ label: String = "sdgallery-test") throws -> URL {
        let dir = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(label)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }
}
