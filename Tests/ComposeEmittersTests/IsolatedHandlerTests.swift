import ComposeMachinery
import ComposeTestSupport
import Testing

@testable import ComposeEmitters

/// What an emitter registers for a handler, by where the handler was written.
@Suite struct IsolatedHandlerTests {
    @Test func aHandlerWrittenInNonisolatedCodeIsRegisteredAsItIs() {
        let subscriber = IsolatedHandler.subscriber { (_: Int) in }
        #expect(subscriber.relay == nil)  // no queue, no hop: called on the delivering thread
    }

    @Test func aMainActorHandlerGetsARelayOnTheMainActor() {
        let subscriber = IsolatedHandler.subscriber { @MainActor (_: Int) in }
        #expect(subscriber.relay?.running.isMainActor == true)
    }
}

/// The emitter's delivery loop reads each entry of its snapshot as a pointer, without retaining
/// it: that needs an optional entry to be one reference, `nil` a null pointer.
@Suite struct EntryLayoutTests {
    @Test func anOptionalEntryIsOneNullablePointer() {
        typealias Entry = EmitterCore<Int>.Entry
        #expect(MemoryLayout<Entry?>.size == MemoryLayout<UnsafeRawPointer>.size)
        #expect(MemoryLayout<Entry?>.stride == MemoryLayout<UnsafeRawPointer>.stride)
        let none: Entry? = nil
        let bits = withUnsafeBytes(of: none) { $0.load(as: UInt.self) }
        #expect(bits == 0)
    }
}
