import Foundation

/// How each terminal is started under Xvfb: one description per kind (what it needs installed, the
/// helpers it needs running first, its command line), read by `GraphicalTerminal.init`, the one
/// launcher. foot is Wayland-only: it runs on weston's X11 backend inside Xvfb. GNOME Terminal's
/// server is started by D-Bus activation: a private session bus first. Konsole, foot and GNOME
/// Terminal get private XDG config and runtime folders (no user state read or written).
extension GraphicalTerminal.Kind {
    /// A program started before the terminal, ready once `readyFile` exists.
    struct Helper {
        var program: String
        var arguments: [String]
        var environment: [String: String]
        var readyFile: String
    }

    /// What starting this terminal takes.
    struct Launch {
        /// Started first, in order, each waited for.
        var helpers: [Helper]
        /// The terminal itself.
        var program: String
        var arguments: [String]
        var environment: [String: String]
        /// Where the pointer goes once the window is there: inside it (without a window manager the
        /// keyboard follows the pointer), away from the text where the compositor draws a cursor.
        var pointer: (x: Int, y: Int)
    }

    /// The programs this terminal needs besides Xvfb, xdotool and ImageMagick.
    var programs: [String] {
        switch self {
        case .xterm, .mlterm, .kitty, .konsole: return ["/usr/bin/\(rawValue)"]
        case .foot: return ["/usr/bin/foot", "/usr/bin/weston"]
        case .gnomeTerminal: return ["/usr/bin/gnome-terminal", "/usr/bin/dbus-daemon"]
        case .kitty041: return ["/usr/bin/unshare", "/usr/sbin/chroot", DebianRoot.path + "/usr/bin/kitty", DebianRoot.path + "/usr/bin/tmux"]
        }
    }

    /// The command lines for `shell` (run by `sh -c`) in a window of `size` cells on `display`, with
    /// `runtime` a private folder (mode 0700) for sockets and configuration.
    func launch(shell: String, size: (columns: Int, rows: Int), background: String?, display: String, runtime: String) -> Launch {
        let command = ["sh", "-c", shell]
        let x11: [String: String] = ["DISPLAY": display, "LIBGL_ALWAYS_SOFTWARE": "1"]
        let isolated = x11.merging(["XDG_RUNTIME_DIR": runtime, "XDG_CONFIG_HOME": runtime + "/config",
                                    "XDG_DATA_HOME": runtime + "/data", "XDG_STATE_HOME": runtime + "/state"]) { $1 }
        switch self {
        case .xterm:
            var arguments = ["-ti", "vt340", "-xrm", "XTerm*decTerminalID: vt340", "-xrm", "XTerm*numColorRegisters: 256",
                             "-fa", "Monospace", "-fs", "10", "-geometry", "\(size.columns)x\(size.rows)+0+0"]
            if let background { arguments += ["-bg", background] }
            return Launch(helpers: [], program: "/usr/bin/xterm", arguments: arguments + ["-e"] + command, environment: x11, pointer: (300, 300))
        case .mlterm:
            var arguments = ["-g", "\(size.columns)x\(size.rows)+0+0"]
            if let background { arguments += ["-b", background] }
            return Launch(helpers: [], program: "/usr/bin/mlterm", arguments: arguments + ["-e"] + command, environment: x11, pointer: (300, 300))
        case .kitty:
            var arguments = ["-o", "initial_window_width=1500", "-o", "initial_window_height=900", "-o", "remember_window_size=no"]
            if let background { arguments += ["-o", "background=\(background)"] }
            return Launch(helpers: [], program: "/usr/bin/kitty", arguments: arguments + command, environment: x11, pointer: (300, 300))
        case .konsole:
            // Geometry in pixels: 8×17 cells (DejaVu Sans Mono 10 here), the scroll bar and the tool bar.
            // No background option: Konsole's colours come from a profile.
            let geometry = "\(size.columns * 8 + 30)x\(size.rows * 17 + 40)+0+0"
            return Launch(helpers: [], program: "/usr/bin/konsole",
                          arguments: ["--nofork", "--hide-menubar", "--hide-tabbar", "-qwindowgeometry", geometry, "-e"] + command,
                          environment: isolated, pointer: (300, 300))
        case .foot:
            // weston's X11 backend as the Wayland compositor, without its panel (its clock would change
            // the screen every minute) on a black desktop; foot without decorations.
            let ini = "[core]\nidle-time=0\n[shell]\npanel-position=none\nbackground-color=0xff000000\nlocking=false\n"
            try? ini.write(toFile: runtime + "/weston.ini", atomically: true, encoding: .utf8)
            let socket = "wl-sdg"
            let weston = Helper(program: "/usr/bin/weston",
                                arguments: ["-c", runtime + "/weston.ini", "--backend=x11-backend.so", "--use-pixman", "--width=1600",
                                            "--height=1000", "--socket=\(socket)", "--idle-time=0"],
                                environment: isolated, readyFile: runtime + "/" + socket)
            // Full screen: weston places other windows at random, and the tests crop from the top left.
            // `size` does not apply (200×58 cells of 8×17).
            var arguments = ["-o", "font=monospace:size=10", "-o", "csd.preferred=none", "--fullscreen"]
            if let background {
                let hex = ["black": "000000", "white": "ffffff"][background] ?? background.replacingOccurrences(of: "#", with: "")
                arguments += ["-o", "colors.background=\(hex)"]
            }
            return Launch(helpers: [weston], program: "/usr/bin/foot", arguments: arguments + command,
                          environment: isolated.merging(["WAYLAND_DISPLAY": socket]) { $1 }, pointer: (1590, 990))
        case .kitty041:
            // kitty 0.41 of the Debian 13 root, in a mount namespace of its own (the mounts go with
            // its last process): /dev, /proc, /sys, /tmp (the X socket, the test's files) and the
            // folders of the sdgallery binary and its Swift runtime, at their own paths.
            var kitty = ["kitty", "-o", "initial_window_width=1500", "-o", "initial_window_height=900", "-o", "remember_window_size=no"]
            if let background { kitty += ["-o", "background=\(background)"] }
            let libraries = DebianRoot.libraryFolder.map { " LD_LIBRARY_PATH='\($0)'" } ?? ""
            let binds = DebianRoot.binds.map { "mkdir -p \"$R\($0)\" && mount --bind '\($0)' \"$R\($0)\"" }.joined(separator: " && ")
            let script = "set -e; R='\(DebianRoot.path)'; for d in dev proc sys; do mount --rbind /$d \"$R/$d\"; done; "
                + "mount --bind /tmp \"$R/tmp\"; \(binds.isEmpty ? ":" : binds); "
                + "exec chroot \"$R\" /usr/bin/env HOME=/root TERM=xterm-256color\(libraries) \(kitty.joined(separator: " ")) sh -c \"$1\""
            return Launch(helpers: [], program: "/usr/bin/unshare",
                          arguments: ["--mount", "--propagation", "private", "--", "/bin/sh", "-c", script, "sdg-kitty", shell],
                          environment: x11.merging(["XDG_CONFIG_HOME": runtime + "/config", "XDG_RUNTIME_DIR": runtime]) { $1 },
                          pointer: (300, 300))
        case .gnomeTerminal:
            // A private session bus: gnome-terminal asks it to start gnome-terminal-server. No
            // accessibility bus (it would start a daemon of its own).
            // The server gets the bus daemon's environment.
            let bus = runtime + "/bus"
            let session = isolated.merging(["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(bus)", "NO_AT_BRIDGE": "1", "GTK_A11Y": "none"]) { $1 }
            let daemon = Helper(program: "/usr/bin/dbus-daemon",
                                arguments: ["--session", "--nofork", "--nopidfile", "--address=unix:path=\(bus)"],
                                environment: session, readyFile: bus)
            return Launch(helpers: [daemon], program: "/usr/bin/gnome-terminal",
                          arguments: ["--wait", "--geometry=\(size.columns)x\(size.rows)+0+0", "--"] + command,
                          environment: session, pointer: (300, 300))
        }
    }
}
