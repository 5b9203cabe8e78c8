// swift-tools-version:6.0
//
// sdgallery — a terminal image gallery on a Linux/Swift port of SDWebImage.
// Dependency arrows point down only:
//   sdgallery → Gallery → {WebImage, TerminalGraphics} → ImageCodecs → C* wrappers;
//   Locking (the lock type), SafeText (the sanitizer) and SafeFiles (opening files named from
//   outside) sit under all of them.
// Each C library is imported by exactly one Swift module; every module a target imports is declared.
// Swift 6 language mode (strict concurrency) for every target: `swiftLanguageModes` below.
import PackageDescription

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
        .target(name: "CAVIF", linkerSettings: [.linkedLibrary("avif")]),
        .target(name: "CHEIF", linkerSettings: [.linkedLibrary("heif")]),
        .target(name: "CTIFF", linkerSettings: [.linkedLibrary("tiff")]),
        .target(name: "CJXL", linkerSettings: [.linkedLibrary("jxl")]),
        // librsvg is dlopen'ed on the first SVG (Sources/CRSVG): nothing to link.
        .target(name: "CRSVG"),
        .target(name: "CSixel", linkerSettings: [.linkedLibrary("sixel")]),
        .target(name: "CZlib", linkerSettings: [.linkedLibrary("z")]),
        .target(name: "CCrypto", linkerSettings: [.linkedLibrary("crypto")]),
        .target(name: "CSystem"),
        .target(name: "CLibFuzzer"),

        // MARK: Swift modules
        .target(name: "Locking"),
        .target(name: "SafeText"),
        .target(name: "SafeFiles"),
        .target(name: "Zlib", dependencies: ["CZlib"]),
        .target(name: "ImageCodecs", dependencies: ["Locking", "CJPEG", "CPNG", "CGIF", "CWebP", "CAVIF", "CHEIF", "CTIFF", "CJXL", "CRSVG"]),
        .target(
            name: "WebImage",
            dependencies: [
                "ImageCodecs", "Locking", "SafeText", "SafeFiles", "Zlib", "CCurl", "CCrypto",
                .product(name: "DequeModule", package: "swift-collections"),
            ]
        ),
        .target(name: "TerminalGraphics", dependencies: ["ImageCodecs", "Locking", "SafeText", "Zlib", "CSixel"]),
        .target(
            name: "Gallery",
            dependencies: [
                "WebImage", "TerminalGraphics", "ImageCodecs", "Locking", "SafeText", "SafeFiles", "CNcurses", "CSystem",
                .product(name: "FlyingFox", package: "FlyingFox"),
                .product(name: "FlyingSocks", package: "FlyingFox"),
            ]
        ),
        .executableTarget(
            name: "sdgallery",
            dependencies: ["Gallery", "TerminalGraphics", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .executableTarget(
            name: "sdgallery-bench",
            dependencies: ["ImageCodecs", "CWebP", "Locking", "WebImage", "TerminalGraphics", "Gallery", "Zlib", "TestSupport", .product(name: "FlyingFox", package: "FlyingFox")]
        ),
        // Fuzz targets (scripts/fuzz builds sdgallery-fuzz with -sanitize=fuzzer,address; any other
        // build of it replays inputs).
        .target(name: "FuzzTargets", dependencies: ["ImageCodecs", "TerminalGraphics", "Gallery", "SafeText"]),
        .executableTarget(name: "sdgallery-fuzz", dependencies: ["FuzzTargets", "CLibFuzzer"]),

        // MARK: Tests
        .target(
            name: "TestSupport",
            dependencies: [
                "Locking", "Zlib", "WebImage",
                .product(name: "FlyingFox", package: "FlyingFox"),
                .product(name: "FlyingSocks", package: "FlyingFox"),
            ],
            path: "Tests/TestSupport"
        ),
        // The terminal model, a test oracle: libvterm (Debian's libvterm-dev) for the text layer, wrapped
        // in the test-only C target CVTerm and imported by TerminalModel alone.
        .target(name: "CVTerm", path: "Tests/CVTerm", linkerSettings: [.linkedLibrary("vterm")]),
        .target(name: "TerminalModel", dependencies: ["CVTerm", "TerminalGraphics"], path: "Tests/TerminalModel"),
        .testTarget(name: "TerminalModelTests", dependencies: ["TerminalModel", "TerminalGraphics"]),
        .testTarget(name: "SafeTextTests", dependencies: ["SafeText"]),
        .testTarget(name: "SafeFilesTests", dependencies: ["SafeFiles"]),
        .testTarget(name: "ZlibTests", dependencies: ["Zlib"]),
        .testTarget(name: "TestSupportTests", dependencies: ["Locking", "TestSupport"]),
        .testTarget(name: "ImageCodecsTests", dependencies: ["ImageCodecs", "CWebP", "Locking", "Zlib", "TestSupport"]),
        // Every module a test target imports is listed: one imported only transitively is not tracked,
        // so a change to its types' layout can leave the tests' objects stale (and crashing).
        .testTarget(name: "WebImageTests", dependencies: ["WebImage", "ImageCodecs", "Locking", "SafeText", "Zlib", "TestSupport"]),
        .testTarget(name: "TerminalGraphicsTests", dependencies: ["TerminalGraphics", "ImageCodecs", "Locking", "Zlib", "TestSupport"]),
        .testTarget(
            name: "GalleryTests",
            dependencies: [
                "Gallery", "WebImage", "TerminalGraphics", "ImageCodecs", "Locking", "SafeText", "SafeFiles", "CNcurses", "TestSupport",
                "TerminalModel", .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(name: "FuzzTargetsTests", dependencies: ["FuzzTargets", "ImageCodecs", "Locking", "TerminalGraphics", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
