import Foundation
import Testing
import TestSupport
@testable import WebImage
#if canImport(Glibc)
import Glibc
#endif

/// Kills a real writer process with SIGKILL in the middle of its writes, then checks that a fresh
/// cache on the directory serves no partial entry and sweeps the leftover temp file.
///
/// The child is `sdgallery-bench cache-writer DIR`, built next to this test binary: it stores
/// entries "kill-N" (bytes `payload(N, count: 1 MiB + N)`, fsynced) in an endless loop.
@Suite struct DiskCacheKillTests {
    static var writerExecutable: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("sdgallery-bench")
    }

    @Test(.timeLimit(.minutes(1)))
    func sigkillMidWriteLeavesNoPartialEntry() async throws {
        let executable = Self.writerExecutable
        try #require(FileManager.default.isExecutableFile(atPath: executable.path), "build sdgallery-bench first (swift build --build-tests)")
        let (_, dir) = try makeDisk()
        // The children are waited for on a thread of their own, not on the cooperative pool that the
        // loopback server of the other tests needs.
        let (caughtMidWrite, allKilled) = try await Blocking.run { () throws -> (Bool, Bool) in
            var caughtMidWrite = false
            var allKilled = true
            for _ in 0..<6 where !caughtMidWrite {
                let child = Process()
                child.executableURL = executable
                child.arguments = ["cache-writer", dir.path]
                child.standardOutput = FileHandle.nullDevice
                try child.run()
                // Wait until the child is writing a temp file (bytes in it), then kill it at once.
                let deadline = Date().addingTimeInterval(10)
                var sawTemp = false
                while Date() < deadline && !sawTemp {
                    sawTemp = tempFiles(dir).contains { (POSIXFile.status(path: dir.path + "/" + $0)?.size ?? 0) > 0 }
                    if !sawTemp { usleep(500) }
                }
                kill(child.processIdentifier, SIGKILL)
                child.waitUntilExit()
                allKilled = allKilled && child.terminationReason == .uncaughtSignal
                caughtMidWrite = sawTemp && !tempFiles(dir).isEmpty
            }
            return (caughtMidWrite, allKilled)
        }
        #expect(allKilled)
        #expect(caughtMidWrite, "never caught the writer mid-write")

        let events = EventLog()
        let (fresh, _) = try makeDisk(dir, events: events)  // start-up sweep, waited for
        #expect(tempFiles(dir).isEmpty)
        var served = 0
        for n in 0..<200 {
            guard let entry = fresh.entry(forKey: "kill-\(n)") else { continue }
            #expect(entry.data == payload(n, count: (1 << 20) + n), "entry kill-\(n) is not what was written")
            served += 1
        }
        #expect(served == fresh.count)
        #expect(events.corruptCount == 0)
        #expect(fresh.totalSize == directorySize(dir))
    }
}
