import Foundation

/// A server's side of `Accept` negotiation (RFC 9110 §12.5.1), for loopback servers that hold one
/// picture in several formats: the variant whose media type the client weighs highest (exact type,
/// then `type/*`, then `*/*`; `q=0` refuses), ties going to the server's own order (smaller files
/// first). Nil when the client accepts none.
public enum ContentNegotiation {
    /// Picks from `variants` (media type, in the server's preference order) for `accept`.
    public static func choose(_ variants: [String], accept: String?) -> String? {
        guard let accept, !accept.isEmpty else { return variants.first }
        let ranges = accept.split(separator: ",").map { part -> (range: String, q: Double) in
            let fields = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            let q = fields.dropFirst().first { $0.lowercased().hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            return (fields.first?.lowercased() ?? "", q)
        }
        func weight(_ type: String) -> Double {
            let major = type.split(separator: "/").first.map(String.init) ?? type
            for candidate in [type, major + "/*", "*/*"] {
                if let match = ranges.first(where: { $0.range == candidate }) { return match.q }
            }
            return 0
        }
        let weighed = variants.enumerated().map { (index: $0.offset, type: $0.element, q: weight($0.element)) }.filter { $0.q > 0 }
        return weighed.max { $0.q < $1.q || ($0.q == $1.q && $0.index > $1.index) }?.type
    }
}
