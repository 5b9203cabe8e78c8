/// Image data a terminal keeps under an id (kitty `a=t`), sent once before the first placement that
/// needs it; the frame writer remembers which ids the terminal holds.
public struct ImageUpload: Sendable, Hashable {
    /// The terminal's image id.
    public var id: UInt32
    /// The bytes that transmit the data.
    public var bytes: [UInt8]
    /// Whether the commands go through tmux passthrough.
    public var tmuxPassthrough: Bool
    /// For an animation the terminal plays (every frame in `bytes`: `KittyRenderer.renderAnimation`),
    /// how many times it loops (0: forever); nil for a still image.
    public var animationLoops: Int?

    /// Creates an upload.
    public init(id: UInt32, bytes: [UInt8], tmuxPassthrough: Bool = false, animationLoops: Int? = nil) {
        self.id = id
        self.bytes = bytes
        self.tmuxPassthrough = tmuxPassthrough
        self.animationLoops = animationLoops
    }
}
