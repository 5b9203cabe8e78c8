import Foundation
import ImageCodecs
import Testing
@testable import WebImage

/// The early tier's payload and its rule: an early image is good for a target whose fit of the
/// source is no larger than its pixels; anything else in its place is not an early image.
@Suite struct EarlyImageEntryTests {
    /// A 120×90 early image of a 1024×768 JPEG at 1/8.
    static func early(_ tier: EarlyTier? = .scale(denominator: 8)) -> Image {
        var image = Image(width: 120, height: 90, pixels: [UInt8](repeating: 77, count: 120 * 90 * 4),
                          sourceSize: PixelSize(width: 1024, height: 768))
        image.sourceFormat = .jpeg
        image.sourceByteCount = 388_724
        image.earlyTier = tier
        return image
    }

    @Test func everyTierRoundTripsWithWhatTheFileIs() throws {
        for tier in [EarlyTier.scale(denominator: 8), .scale(denominator: 4), .scale(denominator: 2), .exifThumbnail, .firstPass] {
            let payload = try #require(EarlyImageEntry.encode(Self.early(tier)))
            let image = try #require(EarlyImageEntry.decode(payload))
            #expect(image.earlyTier == tier && image.size == PixelSize(width: 120, height: 90))
            #expect(image.sourceSize == PixelSize(width: 1024, height: 768) && image.sourceFormat == .jpeg && image.sourceByteCount == 388_724)
            #expect(EarlyTier(code: tier.code) == tier)
        }
    }

    @Test func onlyAnEarlyImageIsOne() throws {
        #expect(EarlyImageEntry.encode(Self.early(nil)) == nil)  // an image of the whole file is not kept here
        // A decoded thumbnail (an identity, no tier) is not an early image, nor an unknown tier code.
        let thumbnail = DecodedThumbnail.encode(Self.early(nil), sourceIdentity: "1:2:3")
        #expect(EarlyImageEntry.decode(thumbnail) == nil)
        var payload = [UInt8](try #require(EarlyImageEntry.encode(Self.early())))
        let tierAt = DecodedThumbnail.magic.count + 16 + 8 + 1 + Int(payload[DecodedThumbnail.magic.count + 24])
        #expect(payload[tierAt] == 8)
        payload[tierAt] = 5
        #expect(EarlyImageEntry.decode(Data(payload)) == nil)
        // A source smaller than the image (0×0 here) would make no sense of the fit: refused.
        var sourceless = Self.early()
        sourceless = Image(width: 120, height: 90, pixels: sourceless.pixels, sourceSize: PixelSize(width: 0, height: 0))
        sourceless.earlyTier = .firstPass
        #expect(EarlyImageEntry.decode(try #require(EarlyImageEntry.encode(sourceless))) == nil)
        for cut in [0, 9, 30, payload.count - 1] {
            #expect(EarlyImageEntry.decode(Data(payload.prefix(cut))) == nil)
        }
    }

    @Test func itServesATargetItHoldsAndNoLarger() throws {
        let stored = Self.early()
        #expect(EarlyImageEntry.image(stored, for: PixelSize(width: 120, height: 90))?.id == stored.id)
        #expect(EarlyImageEntry.image(stored, for: PixelSize(width: 200, height: 90))?.size == PixelSize(width: 120, height: 90))
        let smaller = try #require(EarlyImageEntry.image(stored, for: PixelSize(width: 60, height: 60)))
        #expect(smaller.size == PixelSize(width: 60, height: 45) && smaller.earlyTier == stored.earlyTier && smaller.sourceSize == stored.sourceSize)
        #expect(EarlyImageEntry.image(stored, for: PixelSize(width: 121, height: 91)) == nil)
        #expect(EarlyImageEntry.image(stored, for: PixelSize(width: 4000, height: 3000)) == nil)  // the full view
    }
}
