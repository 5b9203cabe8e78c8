import Foundation

/// The Debian 13 (trixie) root that `scripts/setup --e2e` makes with mmdebstrap: kitty 0.41 (Unicode
/// placeholders) and its tmux 3.5a, for the end-to-end tier. The tests run kitty in it through
/// `unshare --mount` + `chroot` (`GraphicalTerminal.Kind.kitty041`); the sdgallery binary built here
/// runs inside unchanged, its folder and the Swift runtime's bind-mounted at their own paths.
public enum DebianRoot {
    /// Where it is (`SDG_TRIXIE_ROOT`, else scripts/setup's default).
    public static let path = ProcessInfo.processInfo.environment["SDG_TRIXIE_ROOT"] ?? "/opt/sdgallery-tests/trixie"

    /// Whether the root holds kitty (scripts/setup --e2e made it).
    public static var installed: Bool { FileManager.default.isExecutableFile(atPath: path + "/usr/bin/kitty") }

    /// The host folders mounted into the root at their own paths: the folder of the built tests and
    /// binaries, the demo's images, and every folder outside the system's library folders that the built `sdgallery`
    /// loads a library from (the Swift runtime), as `ldd` finds them.
    public static var binds: [String] {
        let bin = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().path
        var folders = [bin]
        // The demo's images (`assets/demo`, found next to the package the binary was built in).
        var dir = URL(fileURLWithPath: bin)
        for _ in 0..<6 {
            dir.deleteLastPathComponent()
            let demo = dir.appendingPathComponent("assets/demo").path
            if FileManager.default.fileExists(atPath: demo) {
                folders.append(demo)
                break
            }
        }
        let libraries = (try? ChildProcess.run("/usr/bin/ldd", [bin + "/sdgallery"], timeout: 20).out) ?? ""
        for line in libraries.split(separator: "\n") {
            // "\tlibswiftCore.so => /opt/swift/usr/lib/swift/linux/libswiftCore.so (0x…)"
            guard let arrow = line.range(of: "=> /") else { continue }
            let path = line[line.index(before: arrow.upperBound)...].split(separator: " ").first.map(String.init) ?? ""
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
            let system = ["/lib", "/usr/lib", "/lib64", "/usr/lib64"].contains { folder == $0 || folder.hasPrefix($0 + "/") }
            if !system && !folders.contains(folder) { folders.append(folder) }
        }
        return folders.filter { !$0.hasPrefix("/tmp") && $0 != "/" }
    }
}
