import Foundation

/// Turns the next `close()` of one server-side connection into a TCP reset, for `.resetAfter`.
///
/// FlyingFox does not hand out its sockets, so the connection is found the way `ss -p` would: the
/// process's descriptors are scanned for the TCP socket whose local port is the server's and whose
/// peer port is the client's. `SO_LINGER` {on, 0 s} on it makes the close abortive: the kernel sends
/// RST instead of FIN and drops anything unsent.
enum AbortiveClose {
    /// Arms the socket of the connection (server port, client port); false when none was found.
    @discardableResult
    static func arm(serverPort: UInt16, clientPort: UInt16) -> Bool {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return false }
        for name in names {
            guard let fd = Int32(name), port(of: fd, peer: false) == serverPort, port(of: fd, peer: true) == clientPort else {
                continue
            }
            var abortive = linger(l_onoff: 1, l_linger: 0)
            return setsockopt(fd, SOL_SOCKET, SO_LINGER, &abortive, socklen_t(MemoryLayout<linger>.size)) == 0
        }
        return false
    }

    /// The IPv4 port of `fd`'s local (or peer) address; nil for anything but an IPv4 socket.
    private static func port(of fd: Int32, peer: Bool) -> UInt16? {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let status = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { peer ? getpeername(fd, $0, &length) : getsockname(fd, $0, &length) }
        }
        guard status == 0, address.sin_family == sa_family_t(AF_INET) else { return nil }
        return UInt16(bigEndian: address.sin_port)
    }
}
