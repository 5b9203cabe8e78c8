// Benchmarks: programs that print figures (see scripts/bench*). One case per benchmark; each lives
// in its own file.
let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "downloader":
    await DownloaderBench.run(Array(arguments.dropFirst()))
default:
    print("usage: sdgallery-bench <benchmark> [options]\nbenchmarks: downloader")
}
