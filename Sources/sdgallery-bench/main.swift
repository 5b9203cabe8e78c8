// Benchmarks: programs that print figures (see scripts/bench*). Filled by the codec, downloader,
// cache and renderer work.
print("sdgallery-bench: no benchmark selected")
