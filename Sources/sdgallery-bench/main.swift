// Benchmarks: programs that print figures (see scripts/bench*). One case per area; each area's
// code lives in its own file.
let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "cache": CacheBench.run(Array(arguments.dropFirst()))
case "cache-writer": CacheBench.runKillTestWriter(Array(arguments.dropFirst()))
default: print("usage: sdgallery-bench <cache> [options]")
}
