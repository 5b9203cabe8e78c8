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
case "serve":
    await ServeCommand.run(rest)
case "list":
    ListBench.run(rest)
case "pty":
    PtyCommand.run(rest)
case "decode-rss":
    DecodeRSSBench.run(rest)
case "negotiate":
    NegotiateBench.run(rest)
case "animate":
    AnimateBench.run(rest)
case "scan-bytes":
    ScanBytesBench.run(rest)
case "suite", "sheet", "scroll", "memory", "keys":
    SuiteCommand.run(arguments[0], rest)
default:
    print("usage: sdgallery-bench <benchmark> [options]")
    print("  codecs [DIR]   decode full size vs into a 320×200 box")
    print("  cache          memory/disk hit latency, store throughput")
    print("  render [N]     encode one screen of 24 thumbnails (sixel, kitty, half-block) vs img2sixel")
    print("  downloader [--count N] [--rounds R] [--concurrency C]   ImageDownloader vs curl --parallel over loopback")
    print("  serve DIR [--rate R] [--fail-rate F] …   loopback image server with aliases, throttle, failures, counters")
    print("  list --sdgallery BIN [--baseline OLD] [--sizes N,…]   10⁴…10⁷-line lists in tmux: first frame, RSS, time of G")
    print("  pty [--stderr PATH] -- COMMAND …         run COMMAND on a 160×48 pty that answers terminal queries")
    print("  decode-rss FILE [--box WxH] [--first-frame] [--step]   one decode: frames playable, time, peak RSS (--write-gif PATH WxHxN)")
    print("  negotiate --images DIR [--sdgallery BIN,…]   bytes of a --print sheet from a server negotiating AVIF/WebP/JPEG on Accept")
    print("  animate [--sdgallery BIN] [--seconds S] [--renderers sixel,kitty,blocks]   bytes/s and key-to-frame with animated cells, on and off")
    print("  scan-bytes --images DIR [--sdgallery BIN,…] [--rates 1M,0] [--files]   bytes a cold --print sheet fetches vs where each cell's scans end")
    print("  suite --images DIR [--sdgallery BIN] [--quick] [--runs N] [--out FILE]   every end-to-end benchmark (scripts/bench)")
    print("  sheet | scroll | memory | keys --images DIR …   one of them: contact sheet vs timg/chafa (Debian 12 and 13), scroll waste,")
    print("                                                  peak RSS + duplicate URLs, key-to-frame under load")
}
