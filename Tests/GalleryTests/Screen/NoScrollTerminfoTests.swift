import Foundation
import Testing
@testable import Gallery

/// Children get a minimal environment (issue 21: `SDGALLERY_PASSWORD` reached the `tic` child).
@Suite(.serialized) struct NoScrollTerminfoTests {
    @Test func aChildDoesNotSeeThePassword() {
        setenv("SDGALLERY_PASSWORD", "hunter2", 1)
        defer { unsetenv("SDGALLERY_PASSWORD") }
        #expect(NoScrollTerminfo.run("/bin/sh", ["-c", "test -z \"$SDGALLERY_PASSWORD\""]) == 0)
        #expect(NoScrollTerminfo.run("/bin/sh", ["-c", "test -n \"$HOME\""]) == 0)
    }

    @Test func onlyTheNamesTicNeedsAreKept() {
        let kept = NoScrollTerminfo.childEnvironment(["PATH": "/bin", "SDGALLERY_PASSWORD": "x", "TERMINFO_DIRS": "/t", "AWS_SECRET": "y"])
        #expect(kept == ["PATH=/bin", "TERMINFO_DIRS=/t"])
    }
}
