import CLibFuzzer
import Foundation
import FuzzTargets

/// The bridge to libFuzzer: its driver, its callback, and the classic `LLVMFuzzerTestOneInput`
/// symbol (which the fuzzer runtime's archive references, so every build defines it).
enum LibFuzzerEntry {
    /// `fuzz TARGET FLAGS…` (or, in a child libFuzzer started, just `FLAGS…` with SDG_FUZZ_TARGET set):
    /// runs the driver, adding `-max_len` for the target unless given. Returns an exit status.
    static func run(_ arguments: [String]) -> Int32 {
        var rest = arguments
        if rest.first == "fuzz" {
            rest.removeFirst()
            guard let name = rest.first, let target = FuzzTarget(rawValue: name) else {
                FileHandle.standardError.write(Data("sdgallery-fuzz fuzz: name a target (--list shows them)\n".utf8))
                return 2
            }
            rest.removeFirst()
            setenv("SDG_FUZZ_TARGET", target.rawValue, 1)
            if !rest.contains(where: { $0.hasPrefix("-max_len=") }) { rest.insert("-max_len=\(target.maxLength)", at: 0) }
        }
        guard sdg_fuzz_available() != 0 else {
            FileHandle.standardError.write(Data("sdgallery-fuzz: this build has no libFuzzer; run scripts/fuzz (or replay files: sdgallery-fuzz TARGET FILE…)\n".utf8))
            return 2
        }
        // The driver keeps argv for the child processes it may start: leak it on purpose.
        let argv = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: rest.count + 2)
        argv[0] = strdup(CommandLine.arguments[0])
        for (i, arg) in rest.enumerated() { argv[i + 1] = strdup(arg) }
        argv[rest.count + 1] = nil
        var argc = Int32(rest.count + 1)
        var argvPointer: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
        return sdg_fuzz_run_driver(&argc, &argvPointer, { data, size in LibFuzzerEntry.testOneInput(data, size) })
    }

    /// One input: runs the target; a broken invariant is reported and aborts, which libFuzzer
    /// records as a crash with the input saved.
    static func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        guard let target = FuzzTarget.fromEnvironment else {
            FileHandle.standardError.write(Data("sdgallery-fuzz: SDG_FUZZ_TARGET is not a target name\n".utf8))
            abort()
        }
        let report = target.run(Data(UnsafeBufferPointer(start: data, count: size)))
        if !report.problems.isEmpty {
            FileHandle.standardError.write(Data("sdgallery-fuzz \(target.rawValue): invariant broken\n\(report)\n".utf8))
            abort()
        }
        return 0
    }
}

/// libFuzzer's classic entry point, for a driver that calls it directly (target from SDG_FUZZ_TARGET).
@_cdecl("LLVMFuzzerTestOneInput")
public func sdgFuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    LibFuzzerEntry.testOneInput(data, size)
}
