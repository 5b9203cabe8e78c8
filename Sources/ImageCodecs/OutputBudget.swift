/// The bytes of pixels one animated decode may hold (`DecodeOptions.outputByteLimit`): its working
/// canvases, allocated once, plus every frame kept at the target size.
struct OutputBudget {
    /// Most bytes in all.
    let limit: Int
    /// Bytes of the working canvases (RGBA, every copy the decoder keeps).
    let working: Int
    /// Bytes of one frame kept.
    let frame: Int

    /// Whether `frames` kept frames fit next to the working canvases.
    func allows(frames: Int) -> Bool {
        let (kept, over) = frames.multipliedReportingOverflow(by: frame)
        return !over && working <= limit && kept <= limit - working
    }
}
