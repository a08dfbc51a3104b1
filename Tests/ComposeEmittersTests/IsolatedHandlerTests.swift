import ComposeTestSupport
import Testing

@testable import ComposeEmitters

/// `IsolatedHandler` calls an `@isolated(any)` function as the same function type without the
/// attribute. These tests pin down what that relies on, so a compiler that changed the
/// representation would fail here rather than in an app.
@Suite struct IsolatedHandlerTests {
    @Test func anIsolatedAnyFunctionHasTheLayoutOfThePlainFunction() {
        #expect(
            MemoryLayout<@isolated(any) @Sendable (Int) -> Void>.size
                == MemoryLayout<@Sendable (Int) -> Void>.size)
        #expect(
            MemoryLayout<@isolated(any) @Sendable () -> Void>.size == MemoryLayout<@Sendable () -> Void>.size)
    }

    @Test func theSynchronousCallReachesTheClosureWithItsCaptures() {
        let recorder = Recorder<String>()
        let prefix = "value "
        let isolated: @isolated(any) @Sendable (Int) -> Void = { value in recorder.record(prefix + String(value)) }
        #expect(isolated.isolation == nil)
        IsolatedHandler.synchronous(isolated)(42)
        let signal: @isolated(any) @Sendable () -> Void = { recorder.record("signal") }
        IsolatedHandler.synchronous(signal)()
        #expect(recorder.values == ["value 42", "signal"])
    }

    @Test func aHandlerWrittenInNonisolatedCodeIsRegisteredAsItIs() {
        let subscriber = IsolatedHandler.subscriber { (_: Int) in }
        #expect(subscriber.delivery == nil)  // no queue, no hop: called on the delivering thread
    }

    @Test func aMainActorHandlerGetsADelivery() {
        let subscriber = IsolatedHandler.subscriber { @MainActor (_: Int) in }
        #expect(subscriber.delivery != nil)
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
