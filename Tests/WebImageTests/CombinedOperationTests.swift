import Testing
@testable import WebImage

/// A load's operation and its cache query point at each other (the query's callback captures the
/// load); the pair must come apart once the load has ended, or every such load leaks.
struct CombinedOperationTests {
    @Test func aQueryAttachedAfterTheFinalResultIsNotKept() {
        weak var weakOperation: CombinedOperation?
        weak var weakQuery: ImageCacheQueryOperation?
        do {
            let operation = CombinedOperation { _ in }
            // The cache answered and the load ended before `attach` ran (a race seen under load).
            let query = ImageCacheQueryOperation { _ in _ = operation }
            query.finish(ImageCacheQueryResult(image: nil, cacheType: .none))
            operation.deliver(final: true) {}
            operation.attach(query)
            weakOperation = operation
            weakQuery = query
        }
        #expect(weakOperation == nil, "the finished operation is kept alive by its query")
        #expect(weakQuery == nil)
    }

    @Test func aCancelledOrFinishedQueryDropsItsCallback() {
        weak var weakOperation: CombinedOperation?
        do {
            let operation = CombinedOperation { _ in }
            let query = ImageCacheQueryOperation { _ in _ = operation }
            operation.attach(query)
            weakOperation = operation
            query.cancel()
            // The operation still holds the query (nobody cancelled the operation), but the
            // query no longer holds the operation.
        }
        #expect(weakOperation == nil)
    }
}
