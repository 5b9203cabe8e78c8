// Benchmarks: programs that print figures (see scripts/bench*). The first argument picks one; each
// lives in its own file.
let arguments = Array(CommandLine.arguments.dropFirst())
let rest = Array(arguments.dropFirst())

switch arguments.first {
case "codecs":
    CodecBench.run(arguments: rest)
case "cache":
    CacheBench.run(rest)
case "cache-writer":
    CacheBench.runKillTestWriter(rest)
case "render":
    RenderBench.run(arguments: rest)
case "downloader":
    await DownloaderBench.run(rest)
default:
    print("usage: sdgallery-bench <benchmark> [options]")
    print("  codecs [DIR]   decode full size vs into a 320×200 box")
    print("  cache          memory/disk hit latency, store throughput")
    print("  render [N]     encode one screen of 24 thumbnails (sixel, kitty, half-block) vs img2sixel")
    print("  downloader [--count N] [--rounds R] [--concurrency C]   ImageDownloader vs curl --parallel over loopback")
}
