import Foundation
import Gallery

/// `--name value` options of the end-to-end benchmark subcommands.
enum Arguments {
    /// A bad option value.
    struct Invalid: Error, CustomStringConvertible {
        let description: String
    }

    static func string(_ name: String, in arguments: [String]) -> String? {
        guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count else { return nil }
        return arguments[i + 1]
    }

    static func int(_ name: String, in arguments: [String]) -> Int? { string(name, in: arguments).flatMap { Int($0) } }

    static func flag(_ name: String, in arguments: [String]) -> Bool { arguments.contains(name) }

    /// A rate such as `200k` or `1.5M` (bytes per second); `0` for none.
    static func rate(_ name: String, in arguments: [String]) throws -> Int? {
        guard let text = string(name, in: arguments) else { return nil }
        if text == "0" { return 0 }
        guard let rate = GalleryOptions.parseRate(text) else { throw Invalid(description: "\(name) '\(text)' is not a rate (e.g. 200k)") }
        return rate
    }

    /// A number in [0, 1].
    static func fraction(_ name: String, in arguments: [String]) throws -> Double? {
        guard let text = string(name, in: arguments) else { return nil }
        guard let value = Double(text), (0...1).contains(value) else { throw Invalid(description: "\(name) '\(text)' is not between 0 and 1") }
        return value
    }
}
