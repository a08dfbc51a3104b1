import Testing

@testable import ComposeMachinery

/// `swift_tryRetain`, which Compose's references that keep no object alive rely on
/// (`LightWeakReference`): it retains a live object, and refuses one whose
/// deinitialization has begun, as loading a `weak` reference does. Called through
/// `CComposeShims`, linked directly (a statically linked executable runs it too:
/// `Scripts/check-static`).
@Suite struct SwiftRuntimeTests {
    final class Probe {
        nonisolated(unsafe) static var answerInDeinit: UnsafeMutableRawPointer?? = nil

        deinit {
            Self.answerInDeinit = .some(SwiftRuntime.tryRetain(Unmanaged.passUnretained(self).toOpaque()))
        }
    }

    @Test func aLiveObjectIsRetainedAndReturned() {
        var object = Probe()
        let address = Unmanaged.passUnretained(object).toOpaque()
        let retained = SwiftRuntime.tryRetain(address)
        #expect(retained == address)
        #expect(!isKnownUniquelyReferenced(&object))  // the runtime's strong reference, besides ours
        Unmanaged<Probe>.fromOpaque(address).release()
        #expect(isKnownUniquelyReferenced(&object))
    }

    @Test func anObjectWhoseDeinitHasBegunIsRefused() {
        do { _ = Probe() }
        #expect(Probe.answerInDeinit == .some(nil))
    }
}
