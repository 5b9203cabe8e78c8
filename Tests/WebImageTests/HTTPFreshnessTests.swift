import Foundation
import Testing
@testable import WebImage

@Suite struct HTTPFreshnessTests {
    let t0 = Date(timeIntervalSince1970: 1_700_000_000)
    var t0Text: String { "Tue, 14 Nov 2023 22:13:20 GMT" }

    @Test func parsesTheThreeHTTPDateForms() {
        #expect(HTTPDate.parse(t0Text) == t0)
        #expect(HTTPDate.parse("Tuesday, 14-Nov-23 22:13:20 GMT") == t0)
        #expect(HTTPDate.parse("Tue Nov 14 22:13:20 2023") == t0)
        #expect(HTTPDate.parse("yesterday") == nil)
    }

    @Test func maxAgeIsFreshUntilItRunsOut() {
        let f = HTTPFreshness(headers: ["cache-control": "public, Max-Age=\"60\"", "date": t0Text], receivedAt: t0)
        #expect(f.maxAge == 60)
        #expect(f.isFresh(at: t0 + 59))
        #expect(!f.isFresh(at: t0 + 60))
    }

    @Test func ageHeaderAndLateArrivalCountAgainstFreshness() {
        let aged = HTTPFreshness(headers: ["cache-control": "max-age=60", "age": "50"], receivedAt: t0)
        #expect(aged.isFresh(at: t0 + 9))
        #expect(!aged.isFresh(at: t0 + 10))
        // The server's Date says the response is already 30 s old when it arrives.
        let late = HTTPFreshness(headers: ["cache-control": "max-age=60", "date": t0Text], receivedAt: t0 + 30)
        #expect(!late.isFresh(at: t0 + 60))
    }

    @Test func noCacheAndNoStoreAreNeverFresh() {
        let noCache = HTTPFreshness(headers: ["cache-control": "no-cache, max-age=600"], receivedAt: t0)
        #expect(noCache.noCache && !noCache.isFresh(at: t0))
        let noStore = HTTPFreshness(headers: ["cache-control": "no-store"], receivedAt: t0)
        #expect(noStore.noStore && !noStore.isFresh(at: t0))
    }

    @Test func expiresInThePastOrInvalidIsStale() {
        let past = HTTPFreshness(headers: ["expires": "Mon, 13 Nov 2023 22:13:20 GMT", "date": t0Text], receivedAt: t0)
        #expect(!past.isFresh(at: t0))
        let invalid = HTTPFreshness(headers: ["expires": "0"], receivedAt: t0)
        #expect(!invalid.isFresh(at: t0))
        let future = HTTPFreshness(headers: ["expires": "Wed, 15 Nov 2023 22:13:20 GMT", "date": t0Text], receivedAt: t0)
        #expect(future.freshnessLifetime == 86_400)
        #expect(future.isFresh(at: t0 + 3600))
        // max-age wins over Expires.
        let both = HTTPFreshness(headers: ["expires": "Wed, 15 Nov 2023 22:13:20 GMT", "cache-control": "max-age=5"], receivedAt: t0)
        #expect(both.freshnessLifetime == 5)
    }

    @Test func heuristicFreshnessIsATenthOfTheLastModifiedAgeCappedAtADay() {
        // Modified 1000 s before Date → fresh for 100 s.
        let recent = HTTPFreshness(headers: ["date": t0Text, "last-modified": "Tue, 14 Nov 2023 21:56:40 GMT"], receivedAt: t0)
        #expect(recent.freshnessLifetime == 100)
        #expect(recent.isFresh(at: t0 + 99))
        #expect(!recent.isFresh(at: t0 + 100))
        // Modified a year ago → capped at one day.
        let old = HTTPFreshness(headers: ["date": t0Text, "last-modified": "Mon, 14 Nov 2022 22:13:20 GMT"], receivedAt: t0)
        #expect(old.freshnessLifetime == HTTPFreshness.heuristicCap)
    }

    @Test func noFreshnessInformationIsStaleAtOnce() {
        let f = HTTPFreshness(headers: ["etag": "\"x\""], receivedAt: t0)
        #expect(f.freshnessLifetime == 0)
        #expect(!f.isFresh(at: t0))
    }

    @Test func mustRevalidateIsRead() {
        let f = HTTPFreshness(headers: ["cache-control": "max-age=10, must-revalidate"], receivedAt: t0)
        #expect(f.mustRevalidate)
        #expect(!HTTPFreshness(headers: [:], receivedAt: t0).mustRevalidate)
    }

    @Test func malformedDirectivesAreIgnoredOrStale() {
        let f = HTTPFreshness(headers: ["cache-control": ",,=, max-age=abc, foo", "age": "-3"], receivedAt: t0)
        #expect(f.maxAge == 0)
        #expect(f.age == 0)
        #expect(!f.isFresh(at: t0))
    }
}
