import ArgumentParser
import Gallery

/// The `sdgallery` command: a terminal image gallery for lists of remote image URLs.
@main
struct SDGallery: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sdgallery",
        abstract: "A terminal image gallery for lists of image URLs.",
        version: VersionReport.text
    )

    @Argument(help: "A file of image URLs, one per line ('-' for standard input).")
    var file: String?

    func run() throws {
        // Until the gallery lands (issue 8), the default run prints what this build links against.
        print(VersionReport.text)
    }
}
