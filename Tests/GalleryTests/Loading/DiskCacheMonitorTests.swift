import Testing
import WebImage
@testable import Gallery

@Suite struct DiskCacheMonitorTests {
    @Test func writeFailuresBecomeOneDegradedLinePostedOncePerChange() throws {
        let monitor = DiskCacheMonitor()
        let inbox = try UIInbox<GalleryEvent>()
        monitor.attach(inbox)
        #expect(inbox.drain().isEmpty)  // nothing to say yet
        for _ in 0..<5 { monitor.record(.error(.io(operation: "write", path: "/c/.tmp-1", reason: "No space left on device"))) }
        monitor.record(.error(.corruptEntry(file: "x", reason: "crc")))  // one entry: not a status line
        #expect(monitor.note == "disk cache degraded: write failed (No space left on device)")
        #expect(monitor.failedWrites == 5)
        var status = StatusInfo()
        let events = inbox.drain()
        #expect(events.count == 1)
        for case .status(let change) in events { change(&status) }
        #expect(status.diskNote == monitor.note)
    }

    @Test func offIsFinalAndIsPostedToAnInboxAttachedLater() throws {
        let monitor = DiskCacheMonitor()
        monitor.record(.error(.directoryUnavailable(path: "/c", reason: "Read-only file system")))
        monitor.record(.error(.io(operation: "open", path: "/c/x", reason: "Read-only file system")))
        #expect(monitor.note == "disk cache off: Read-only file system")
        let inbox = try UIInbox<GalleryEvent>()
        monitor.attach(inbox)
        var status = StatusInfo()
        for case .status(let change) in inbox.drain() { change(&status) }
        #expect(status.diskNote == "disk cache off: Read-only file system")
    }
}
