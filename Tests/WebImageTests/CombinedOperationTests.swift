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

/// The gate every load's events pass: nothing after the terminal one, nothing after a cancel.
struct CombinedOperationDeliveryTests {
    @Test func nothingIsDeliveredAfterTheFinalDelivery() {
        let ends = CallbackRecorder<Int>()
        let operation = CombinedOperation { _ in ends.record(1) }
        var delivered: [String] = []
        #expect(operation.deliver(final: false) { delivered.append("progress") })
        #expect(operation.deliver(final: true) { delivered.append("finished") })
        #expect(!operation.deliver(final: true) { delivered.append("a second terminal event") })
        #expect(!operation.deliver(final: false) { delivered.append("a preview after the end") })
        operation.cancel()
        #expect(delivered == ["progress", "finished"])
        #expect(ends.all.count == 1 && operation.isFinished && !operation.isCancelled)
    }

    @Test func nothingIsDeliveredAfterACancel() {
        let ends = CallbackRecorder<Int>()
        let operation = CombinedOperation { _ in ends.record(1) }
        operation.cancel()
        var delivered = 0
        #expect(!operation.deliver(final: false) { delivered += 1 })
        #expect(!operation.deliver(final: true) { delivered += 1 })
        #expect(delivered == 0 && ends.all.count == 1 && operation.isCancelled)
    }
}
