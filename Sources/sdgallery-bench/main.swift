// Benchmarks: programs that print figures (see scripts/bench-*). The first argument picks one:
//   sdgallery-bench codecs [DIR]     decode times full vs scaled (CodecBench.swift)
// Other benchmarks (downloader, cache, render) add a case here and a file of their own.
let arguments = Array(CommandLine.arguments.dropFirst())

switch arguments.first {
case "codecs":
    CodecBench.run(arguments: Array(arguments.dropFirst()))
default:
    print("usage: sdgallery-bench <benchmark> [options]")
    print("benchmarks: codecs [DIR]   decode full size vs into a 320×200 box (inputs made in DIR or a temp dir)")
}
