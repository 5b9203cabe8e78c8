// swift-tools-version:6.0
//
// sdgallery — a terminal image gallery on a Linux/Swift port of SDWebImage.
// Dependency arrows point down only:
//   sdgallery → Gallery → {WebImage, TerminalGraphics} → ImageCodecs → C* wrappers;
//   Locking (the lock type) and SafeText (the sanitizer) sit under all of them.
// Each C library is imported by exactly one Swift module.
import PackageDescription

/// Swift settings shared by every Swift target: Swift 6 language mode is the package default.
let strict: [SwiftSetting] = []

let package = Package(
    name: "sdgallery",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "sdgallery", targets: ["sdgallery"]),
        .library(name: "ImageCodecs", targets: ["ImageCodecs"]),
        .library(name: "WebImage", targets: ["WebImage"]),
        .library(name: "TerminalGraphics", targets: ["TerminalGraphics"]),
        .library(name: "Gallery", targets: ["Gallery"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        .package(url: "https://github.com/swhitty/FlyingFox", exact: "0.27.1"),
        // Tests only: property-based tests with shrinking (the random exploration of the gallery loop).
        .package(url: "https://github.com/x-sheep/swift-property-based", exact: "2.0.1"),
    ],
    targets: [
        // MARK: C wrappers (thin, prefixed shims; errors become Swift errors in the one importing module)
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("curl")]),
        .target(name: "CNcurses", linkerSettings: [.linkedLibrary("ncursesw"), .linkedLibrary("tinfo")]),
        .target(name: "CJPEG", linkerSettings: [.linkedLibrary("jpeg")]),
        .target(name: "CPNG", linkerSettings: [.linkedLibrary("png16")]),
        .target(name: "CGIF", linkerSettings: [.linkedLibrary("gif")]),
        .target(name: "CWebP", linkerSettings: [.linkedLibrary("webp"), .linkedLibrary("webpdemux")]),
        .target(name: "CSixel", linkerSettings: [.linkedLibrary("sixel")]),
        .target(name: "CZlib", linkerSettings: [.linkedLibrary("z")]),
        .target(name: "CCrypto", linkerSettings: [.linkedLibrary("crypto")]),
        .target(name: "CSystem"),
        .target(name: "CLibFuzzer"),

        // MARK: Swift modules
        .target(name: "Locking", swiftSettings: strict),
        .target(name: "SafeText", swiftSettings: strict),
        .target(name: "Zlib", dependencies: ["CZlib"], swiftSettings: strict),
        .target(name: "ImageCodecs", dependencies: ["Locking", "CJPEG", "CPNG", "CGIF", "CWebP"], swiftSettings: strict),
        .target(
            name: "WebImage",
            dependencies: [
                "ImageCodecs", "Locking", "SafeText", "Zlib", "CCurl", "CCrypto",
                .product(name: "DequeModule", package: "swift-collections"),
            ],
            swiftSettings: strict
        ),
        .target(name: "TerminalGraphics", dependencies: ["ImageCodecs", "Locking", "SafeText", "Zlib", "CSixel"], swiftSettings: strict),
        .target(
            name: "Gallery",
            dependencies: [
                "WebImage", "TerminalGraphics", "Locking", "SafeText", "CNcurses", "CSystem",
                .product(name: "FlyingFox", package: "FlyingFox"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "sdgallery",
            dependencies: ["Gallery", "TerminalGraphics", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "sdgallery-bench",
            dependencies: ["ImageCodecs", "Locking", "WebImage", "TerminalGraphics", "Gallery", "Zlib", "TestSupport", .product(name: "FlyingFox", package: "FlyingFox")],
            swiftSettings: strict
        ),
        // Fuzz targets (scripts/fuzz builds sdgallery-fuzz with -sanitize=fuzzer,address; any other
        // build of it replays inputs).
        .target(name: "FuzzTargets", dependencies: ["ImageCodecs", "TerminalGraphics", "Gallery", "SafeText"], swiftSettings: strict),
        .executableTarget(name: "sdgallery-fuzz", dependencies: ["FuzzTargets", "CLibFuzzer"], swiftSettings: strict),

        // MARK: Tests
        .target(
            name: "TestSupport",
            dependencies: [
                "Locking", "Zlib", "WebImage",
                .product(name: "FlyingFox", package: "FlyingFox"),
                .product(name: "FlyingSocks", package: "FlyingFox"),
            ],
            path: "Tests/TestSupport",
            swiftSettings: strict
        ),
        // The terminal model, a test oracle: libvterm (Debian's libvterm-dev) for the text layer, wrapped
        // in the test-only C target CVTerm and imported by TerminalModel alone.
        .target(name: "CVTerm", path: "Tests/CVTerm", linkerSettings: [.linkedLibrary("vterm")]),
        .target(name: "TerminalModel", dependencies: ["CVTerm"], path: "Tests/TerminalModel", swiftSettings: strict),
        .testTarget(name: "TerminalModelTests", dependencies: ["TerminalModel"], swiftSettings: strict),
        .testTarget(name: "SafeTextTests", dependencies: ["SafeText"], swiftSettings: strict),
        .testTarget(name: "ZlibTests", dependencies: ["Zlib"], swiftSettings: strict),
        .testTarget(name: "TestSupportTests", dependencies: ["Locking", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "ImageCodecsTests", dependencies: ["ImageCodecs", "Locking", "TestSupport"], swiftSettings: strict),
        // Every module a test target imports is listed: one imported only transitively is not tracked,
        // so a change to its types' layout can leave the tests' objects stale (and crashing).
        .testTarget(name: "WebImageTests", dependencies: ["WebImage", "ImageCodecs", "Locking", "SafeText", "Zlib", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "TerminalGraphicsTests", dependencies: ["TerminalGraphics", "ImageCodecs", "Locking", "Zlib", "TestSupport"], swiftSettings: strict),
        .testTarget(
            name: "GalleryTests",
            dependencies: [
                "Gallery", "WebImage", "TerminalGraphics", "ImageCodecs", "Locking", "SafeText", "CNcurses", "TestSupport",
                "TerminalModel", .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strict
        ),
        .testTarget(name: "FuzzTargetsTests", dependencies: ["FuzzTargets", "ImageCodecs", "Locking", "TerminalGraphics", "TestSupport"], swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
