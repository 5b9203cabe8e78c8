import WebImage

/// The `UIExecutor` of the gallery's frame loop: work posted from other threads goes through the
/// inbox (waking `poll()`), work on the UI thread runs inline.
public struct InboxExecutor: UIExecutor {
    /// The frame loop's inbox.
    public let inbox: UIInbox<GalleryEvent>

    /// Creates an executor over `inbox`.
    public init(inbox: UIInbox<GalleryEvent>) { self.inbox = inbox }

    /// Whether the caller is the UI thread (the inbox's owner).
    public var isCurrent: Bool { inbox.isOwnerThread }

    /// Posts `work` to the frame loop.
    public func post(_ work: @escaping @Sendable () -> Void) { inbox.post(.work(work)) }
}
