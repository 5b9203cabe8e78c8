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

    /// The libraries of Debian 12 the built sdgallery loads whose files the root lacks (libavif.so.15,
    /// libjxl.so.0.7, libdav1d.so.6 and what they load, where Debian 13 has .16, .0.11, .7), copied
    /// once into a folder next to the binary (bind-mounted with it): the launch puts it on
    /// `LD_LIBRARY_PATH`. Only names the root does not have are in it, so the root's own programs
    /// never load from it. Nil when nothing is missing.
    public static var libraryFolder: String? {
        let bin = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().path
        let folder = bin + "/debian12-libs"
        let libraries = (try? ChildProcess.run("/usr/bin/ldd", [bin + "/sdgallery"], timeout: 20).out) ?? ""
        var copied = 0
        for line in libraries.split(separator: "\n") {
            guard let arrow = line.range(of: "=> /") else { continue }
            let host = line[line.index(before: arrow.upperBound)...].split(separator: " ").first.map(String.init) ?? ""
            let name = (host as NSString).lastPathComponent
            let system = ["/lib/", "/usr/lib/", "/lib64/", "/usr/lib64/"].contains { host.hasPrefix($0) }
            let inRoot = ["/usr/lib/x86_64-linux-gnu/", "/lib/x86_64-linux-gnu/", "/usr/lib/"].contains { FileManager.default.fileExists(atPath: path + $0 + name) }
            guard system, !inRoot else { continue }
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            // The file itself (the name is a link to it), under the name the binary asks for.
            let file = URL(fileURLWithPath: host).resolvingSymlinksInPath().path
            if !FileManager.default.fileExists(atPath: folder + "/" + name) { try? FileManager.default.copyItem(atPath: file, toPath: folder + "/" + name) }
            copied += 1
        }
        return copied > 0 ? folder : nil
    }
}
