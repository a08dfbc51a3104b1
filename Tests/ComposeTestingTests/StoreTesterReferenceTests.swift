import ComposeEmitters
import ComposeRefs
import ComposeStore
import ComposeTestSupport
import ComposeTesting
import Dispatch
import Testing

/// A `StoreTester` records each commit's referenced values as they were at that commit, not as
/// they are when it hears of it: a `@Ref`'s entity may be written again in between.
@Suite(.composeSandbox)
struct StoreTesterReferenceTests {
    struct Card: Referable {
        var id: String
        var text: String
    }

    struct Board: AnyState {
        @Ref var card: Card
        var title = ""

        init() {
            _card = Ref(wrappedValue: Card(id: "card", text: ""))
        }
    }

    /// One thread writes "a" through the store; while the store tells its `didChange`
    /// subscribers (a slow one first), another thread writes "b". The tester records "a", then
    /// "b".
    @Test func aReferencedWriteIsRecordedWithTheValueItCommitted() async {
        let store = Store<Board>()
        let inSlowHandler = DispatchSemaphore(value: 0)
        let letGo = DispatchSemaphore(value: 0)
        let calls = LockedBox(0)
        let slow = store.didChange.register { _ in
            guard
                calls.mutate({ count -> Bool in
                    count += 1
                    return count == 1
                })
            else { return }
            inSlowHandler.signal()
            letGo.wait()
        }
        let tester = StoreTester(store)
        await onThreads(2) { thread in
            if thread == 0 {
                store.card.text = "a"
            } else {
                inSlowHandler.wait()
                store.card.text = "b"
                letGo.signal()
            }
        }
        await tester.receive { $0.card.text = "a" }
        await tester.receive { $0.card.text = "b" }
        await tester.finish()
        slow.cancel()
    }

    /// A commit of the store's own state records the referenced values of that moment: the
    /// entity written by another thread while the commit's notice waits is recorded with the
    /// write that follows.
    @Test func aCommitIsRecordedWithTheReferencedValuesOfItsMoment() async {
        let store = Store<Board>()
        let holder = Referred(Card(id: "card", text: ""))
        let inSlowHandler = DispatchSemaphore(value: 0)
        let letGo = DispatchSemaphore(value: 0)
        let calls = LockedBox(0)
        let slow = store.didChange.register { _ in
            guard
                calls.mutate({ count -> Bool in
                    count += 1
                    return count == 1
                })
            else { return }
            inSlowHandler.signal()
            letGo.wait()
        }
        let tester = StoreTester(store)
        await onThreads(2) { thread in
            if thread == 0 {
                store.title = "first"
            } else {
                inSlowHandler.wait()
                holder.value.text = "later"
                letGo.signal()
            }
        }
        await tester.receive { $0.title = "first" }
        await tester.receive { $0.card.text = "later" }
        await tester.finish()
        slow.cancel()
    }
}
