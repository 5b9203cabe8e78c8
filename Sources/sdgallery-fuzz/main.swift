// sdgallery-fuzz — libFuzzer targets for the codecs, the URL-list parser and the probe-reply parser.
//
//   sdgallery-fuzz TARGET [--quiet] FILE|DIR...     replay inputs (any build; exit 1 on a problem)
//   sdgallery-fuzz fuzz TARGET [-flag=value…] [CORPUS_DIR…]    fuzz (a build made by scripts/fuzz)
//   sdgallery-fuzz --list
//
// The fuzz build is this same program compiled with `-sanitize=fuzzer,address`: libFuzzer is then
// linked in and `fuzz` hands the command line to its driver. Child processes libFuzzer starts
// (merge, fork) inherit the target through SDG_FUZZ_TARGET.
import CLibFuzzer
import Foundation
import FuzzTargets

let targetList = FuzzTarget.allCases.map { "  \($0.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0)) \($0.summary)" }.joined(separator: "\n")
let usage = """
    usage: sdgallery-fuzz TARGET [--quiet] FILE|DIR...        replay inputs through TARGET
           sdgallery-fuzz fuzz TARGET [LIBFUZZER_FLAG|CORPUS_DIR]...   fuzz (build with scripts/fuzz)
           sdgallery-fuzz --list
    targets:
    \(targetList)
    """

var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--list" {
    for target in FuzzTarget.allCases { print("\(target.rawValue) \(target.maxLength)") }
    exit(0)
}
if arguments.first == "fuzz" || (arguments.first?.hasPrefix("-") == true && FuzzTarget.fromEnvironment != nil) {
    exit(LibFuzzerEntry.run(arguments))
}
guard let name = arguments.first, let target = FuzzTarget(rawValue: name) else {
    FileHandle.standardError.write(Data((usage + "\n").utf8))
    exit(2)
}
arguments.removeFirst()
let quiet = arguments.contains("--quiet")
let paths = arguments.filter { $0 != "--quiet" }
guard !paths.isEmpty else {
    FileHandle.standardError.write(Data((usage + "\n").utf8))
    exit(2)
}
exit(Replayer(target: target, quiet: quiet).replay(paths))
