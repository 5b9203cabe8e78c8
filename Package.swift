// swift-tools-version:6.0
//
// sdgallery — a terminal image gallery on a Linux/Swift port of SDWebImage.
// Dependency arrows point down only:
//   sdgallery → Gallery → {WebImage, TerminalGraphics} → ImageCodecs → C* wrappers.
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

        // MARK: Swift modules
        .target(name: "SafeText", swiftSettings: strict),
        .target(name: "ImageCodecs", dependencies: ["CJPEG", "CPNG", "CGIF", "CWebP"], swiftSettings: strict),
        .target(
            name: "WebImage",
            dependencies: ["ImageCodecs", "SafeText", "CCurl", .product(name: "Collections", package: "swift-collections")],
            swiftSettings: strict
        ),
        .target(name: "TerminalGraphics", dependencies: ["ImageCodecs", "SafeText", "CSixel"], swiftSettings: strict),
        .target(
            name: "Gallery",
            dependencies: [
                "WebImage", "TerminalGraphics", "SafeText", "CNcurses",
                .product(name: "FlyingFox", package: "FlyingFox"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "sdgallery",
            dependencies: ["Gallery", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "sdgallery-bench",
            dependencies: ["ImageCodecs", "WebImage", "TerminalGraphics", "Gallery", .product(name: "FlyingFox", package: "FlyingFox")],
            swiftSettings: strict
        ),

        // MARK: Tests
        .target(
            name: "TestSupport",
            dependencies: [
                .product(name: "FlyingFox", package: "FlyingFox"),
                .product(name: "FlyingSocks", package: "FlyingFox"),
            ],
            path: "Tests/TestSupport",
            swiftSettings: strict
        ),
        .testTarget(name: "SafeTextTests", dependencies: ["SafeText"], swiftSettings: strict),
        .testTarget(name: "TestSupportTests", dependencies: ["TestSupport"], swiftSettings: strict),
        .testTarget(name: "ImageCodecsTests", dependencies: ["ImageCodecs", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "WebImageTests", dependencies: ["WebImage", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "TerminalGraphicsTests", dependencies: ["TerminalGraphics", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "GalleryTests", dependencies: ["Gallery", "TestSupport"], swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
