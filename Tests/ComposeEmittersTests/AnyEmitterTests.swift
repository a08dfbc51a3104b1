import ComposeEmitters
import ComposeTestSupport
import Testing

@Suite struct AnyEmitterTests {
    /// A derived emitter stored in a property, as `any Emitter<String>` cannot be.
    struct Search: Sendable {
        let query = ValueEmitter<String>()
        let results: AnyEmitter<Int>

        init() {
            results = query.undup().map(\.count).eraseToAnyEmitter()
        }
    }

    @Test func anErasedEmitterForwardsEveryValueAndCancellation() {
        let search = Search()
        let heard = Recorder<Int>()
        let subscription = search.results += { heard.record($0) }
        search.query.send("ab")
        search.query.send("ab")  // undup
        search.query.send("abc")
        subscription.cancel()
        search.query.send("abcd")
        #expect(heard.values == [2, 3])
        #expect(search.query.subscriberCount == 0)
    }

    @Test func operatorsApplyToAnErasedEmitter() {
        let source = ValueEmitter<Int>()
        let erased = source.eraseToAnyEmitter()
        let heard = Recorder<Int>()
        erased.filter { $0 > 1 }.eraseToAnyEmitter() += { heard.record($0) }
        for value in 0..<4 { source.send(value) }
        #expect(heard.values == [2, 3])
    }
}
