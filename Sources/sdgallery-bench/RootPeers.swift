import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The peers of the Debian 13 (trixie) root that `scripts/setup --bench` makes or completes
/// (`DebianRoot.path`): timg 1.6 and chafa 1.14, run beside Debian 12's timg 1.4.5 and chafa 1.12
/// of the host. A program runs there through `wrap`: `unshare --mount --propagation private` and a
/// shell that mounts /dev, /proc and /sys (rbind: the pty, `/dev/tty`, the CPU count the peers size
/// their thread pools by) and the given host folders at their own paths, then `exec chroot ROOT
/// PROGRAM…`. The mounts belong to that process's namespace and go with it; nothing stays mounted.
/// `unshare` execs without forking, so the pid the pty runner waits for is the program's own.
enum RootPeers {
    /// Where the root is (`SDG_TRIXIE_ROOT`, else scripts/setup's default).
    static var root: String { DebianRoot.path }

    /// `command` (its program a path inside the root) run in the root, with `folders` (host paths)
    /// bind-mounted at the same paths: argv for `PtyRunner.run` or `ChildProcess.run`.
    static func wrap(_ command: [String], binding folders: [String] = []) -> [String] {
        // "$@" after the shell's own two arguments (root, number of folders) is: folders…, command….
        let script = """
        set -e; R=$1; n=$2; shift 2; for d in dev proc sys; do mount --rbind /$d "$R/$d"; done; \
        while [ "$n" -gt 0 ]; do mkdir -p "$R$1"; mount --bind "$1" "$R$1"; shift; n=$((n - 1)); done; \
        exec chroot "$R" "$@"
        """
        return ["/usr/bin/unshare", "--mount", "--propagation", "private", "--", "/bin/sh", "-c", script, "sdg-root",
                root, String(folders.count)] + folders + command
    }

    /// Why `tool` (a name in the root's /usr/bin) cannot be run in the root, nil when it can.
    static func missing(_ tool: String) -> String? {
        guard FileManager.default.fileExists(atPath: root + "/usr/bin") else {
            return "no Debian 13 root at \(root) (scripts/setup --bench makes it)"
        }
        guard FileManager.default.isExecutableFile(atPath: root + "/usr/bin/" + tool) else {
            return "no \(tool) in the Debian 13 root at \(root) (scripts/setup --bench adds it)"
        }
        guard geteuid() == 0 else { return "running the Debian 13 root's programs (unshare --mount, chroot) needs root" }
        return wrapperFailure
    }

    /// Why `/bin/true` through `wrap` fails (first line of its standard error), nil when it runs:
    /// checked once.
    static let wrapperFailure: String? = {
        let command = wrap(["/bin/true"])
        do {
            let result = try ChildProcess.run(command[0], Array(command.dropFirst()), timeout: 30)
            if result.status == 0 { return nil }
            let line = result.err.split(separator: "\n").first.map(String.init) ?? "exit status \(result.status)"
            return "unshare + chroot into \(root) failed: \(line)"
        } catch {
            return "unshare + chroot into \(root) failed: \(error)"
        }
    }()

    /// The first line `tool --version` prints in the root (standard output or error), or
    /// "not measured: REASON".
    static func versionLine(_ tool: String) -> String {
        if let reason = missing(tool) { return "not measured: \(reason)" }
        let command = wrap(["/bin/sh", "-c", "/usr/bin/\(tool) --version 2>&1 || true"])
        return ChildProcess.output(command[0], Array(command.dropFirst()), timeout: 30)?
            .split(separator: "\n").first.map(String.init) ?? "not measured: \(tool) --version failed in \(root)"
    }

    /// The version number in a `--version` line ("timg 1.6.0+ (Debian package …)" → "1.6.0",
    /// "Chafa version 1.14.5" → "1.14.5"), nil when there is none.
    static func number(in line: String) -> String? {
        guard let range = line.range(of: #"[0-9]+\.[0-9]+(\.[0-9]+)?"#, options: .regularExpression) else { return nil }
        return String(line[range])
    }
}
