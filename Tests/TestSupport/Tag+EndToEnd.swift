import Testing

extension Tag {
    /// The end-to-end tier: tests that start the built `sdgallery` or drive a real terminal (tmux,
    /// xterm, mlterm, kitty under Xvfb). `make test` skips it, `make e2e` runs only it, the sanitizer
    /// runs and a plain `swift test` run every tier. `swift test` has no tag filter on the command
    /// line: `scripts/run-tests` finds the suites by `@Suite(.endToEnd` at the start of a line.
    @Tag public static var endToEnd: Self
}

extension Trait where Self == Tag.List {
    /// Puts a suite (or test) in the end-to-end tier: `@Suite(.endToEnd, EndToEnd.needs(.tmux))`.
    public static var endToEnd: Self { .tags(.endToEnd) }
}
