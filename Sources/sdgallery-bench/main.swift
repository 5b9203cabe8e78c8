// Benchmarks: programs that print figures (see scripts/bench*). The first argument picks one; each
// lives in its own file.
let arguments = Array(CommandLine.arguments.dropFirst())
let rest = Array(arguments.dropFirst())

switch arguments.first {
case "codecs":
    CodecBench.run(arguments: rest)
case "downloader":
    await DownloaderBench.run(rest)
case "cache":
    CacheBench.run(rest)
case "cache-writer":
    CacheBench.runKillTestWriter(rest)
default:
    print("usage: sdgallery-bench <benchmark> [options]")
    print("benchmarks: codecs [DIR], downloader, cache")
}
