import Foundation
@testable import Gallery

extension UIInbox where Event == GalleryEvent {
    /// Runs the inbox's work on this thread (its owner: a source's UI thread in these tests) until
    /// `done` holds or `deadline` passes.
    func runWork(until done: () -> Bool, deadline: Date) {
        while !done(), Date() < deadline {
            var wake = pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&wake, 1, 20)
            for case .work(let work) in drain() { work() }
        }
    }
}
