import Foundation

/// Long animated WebPs made from short ones, for tests and benchmarks of decoding many frames.
public enum WebPAnimations {
    /// `animation`'s header chunks (VP8X, ANIM…) then its first frame (`ANMF` chunk) `count` times,
    /// in a RIFF of the right size.
    public static func repeatingFirstFrame(_ animation: Data, count: Int) -> Data {
        let bytes = [UInt8](animation)
        var offset = 12, header: [UInt8] = [], frame: [UInt8] = []
        while offset + 8 <= bytes.count {
            let size = Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16 | Int(bytes[offset + 7]) << 24
            let chunk = Array(bytes[offset..<min(bytes.count, offset + 8 + size + (size & 1))])
            if chunk.starts(with: Array("ANMF".utf8)) { frame = chunk; break }
            header += chunk
            offset += chunk.count
        }
        var body = Array("WEBP".utf8) + header
        body.reserveCapacity(body.count + frame.count * count)
        for _ in 0..<count { body += frame }
        return Data(Array("RIFF".utf8) + withUnsafeBytes(of: UInt32(body.count).littleEndian, Array.init) + body)
    }

    /// `animation`'s header chunks then all its frames (`ANMF` chunks) `times` times over, in a RIFF
    /// of the right size: a long animation whose canvas goes on changing (blends and disposals
    /// carry over from one round to the next).
    public static func repeatingFrames(_ animation: Data, times: Int) -> Data {
        let bytes = [UInt8](animation)
        var offset = 12, header: [UInt8] = [], frames: [UInt8] = []
        while offset + 8 <= bytes.count {
            let size = Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16 | Int(bytes[offset + 7]) << 24
            let chunk = Array(bytes[offset..<min(bytes.count, offset + 8 + size + (size & 1))])
            if chunk.starts(with: Array("ANMF".utf8)) { frames += chunk } else if frames.isEmpty { header += chunk }
            offset += chunk.count
        }
        var body = Array("WEBP".utf8) + header
        body.reserveCapacity(body.count + frames.count * times)
        for _ in 0..<times { body += frames }
        return Data(Array("RIFF".utf8) + withUnsafeBytes(of: UInt32(body.count).littleEndian, Array.init) + body)
    }
}
