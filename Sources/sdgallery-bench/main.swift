// Benchmarks: programs that print figures. `sdgallery-bench <name>`; each helper adds one case.
let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "render":
    RenderBench.run(arguments: Array(arguments.dropFirst()))
default:
    print("usage: sdgallery-bench <benchmark>\n  render   encode one screen of 24 thumbnails (sixel, kitty, half-block) vs img2sixel")
}
