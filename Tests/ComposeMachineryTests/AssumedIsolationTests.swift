import ComposeTestSupport
import Testing

@testable import ComposeMachinery

/// `AssumedIsolation` calls an `@isolated(any)` function as the same function type without the
/// attribute. These tests pin down what that relies on, so a compiler that changed the
/// representation fails here rather than in an app, and check that a debug build refuses a call
/// made off the function's actor.
@Suite struct AssumedIsolationTests {
    @Test func anIsolatedAnyFunctionHasTheLayoutOfThePlainFunction() {
        #expect(MemoryLayout<@isolated(any) @Sendable (Int) -> Void>.size == MemoryLayout<@Sendable (Int) -> Void>.size)
        #expect(MemoryLayout<@isolated(any) @Sendable () -> Void>.size == MemoryLayout<@Sendable () -> Void>.size)
        #expect(
            MemoryLayout<@isolated(any) @Sendable (inout Int) -> Void>.size
                == MemoryLayout<@Sendable (inout Int) -> Void>.size)
        #expect(
            MemoryLayout<@isolated(any) @Sendable (Int, String) -> Void>.size
                == MemoryLayout<@Sendable (Int, String) -> Void>.size)
        #expect(
            MemoryLayout<@isolated(any) @Sendable (Int) throws -> String>.size
                == MemoryLayout<@Sendable (Int) throws -> String>.size)
        #expect(
            MemoryLayout<@isolated(any) @Sendable (Int) -> String>.size
                == MemoryLayout<@Sendable (Int) -> String>.size)
    }

    @Test func theSynchronousCallReachesTheClosureWithItsCaptures() throws {
        let recorder = Recorder<String>()
        let prefix = "value "
        let value = AssumedIsolation<Int> { value in recorder.record(prefix + String(value)) }
        #expect(value.isNonisolated)
        value.callAssumingIsolation(42)
        value.nonisolatedFunction(43)
        AssumedIsolation { recorder.record("signal") }.callAssumingIsolation(())
        AssumedIsolation<(Int, String?)>.pair { (number: Int, text: String?) in recorder.record("\(number) \(text ?? "-")") }
            .callAssumingIsolation((1, nil))
        AssumedIsolation<(Int, String, Bool)>.pack { (number: Int, text: String, flag: Bool) in
            recorder.record("\(number) \(text) \(flag)")
        }.callAssumingIsolation((2, "two", true))
        var counter = 10
        AssumedIsolationInout<Int> { $0 += Int(prefix.count) }.callAssumingIsolation(&counter)
        #expect(counter == 16)
        let made = AssumedIsolationThrowing<Int, String> { number in
            guard number >= 0 else { throw Refused() }
            return prefix + String(number)
        }
        #expect(try made.callAssumingIsolation(5) == "value 5")
        #expect(throws: Refused.self) { try made.callAssumingIsolation(-1) }
        let transformed = AssumedIsolationReturning<Int, String?> { number in number > 0 ? prefix + String(number) : nil }
        #expect(transformed.isolation == nil)
        #expect(transformed.callAssumingIsolation(6) == "value 6")
        #expect(transformed.nonisolatedFunction(0) == nil)
        let large = AssumedIsolationReturning<(Int, String), [String]> { pair in [prefix, String(pair.0), pair.1] }
        #expect(large.callAssumingIsolation((7, "seven")) == ["value ", "7", "seven"])
        let accumulated = AssumedIsolationReturning<(String, Int), String>.pair { (text: String, number: Int) in
            text + String(number)
        }
        #expect(accumulated.callAssumingIsolation((prefix, 8)) == "value 8")
        #expect(recorder.values == ["value 42", "value 43", "signal", "1 -", "2 two true"])
    }

    @Test func aFunctionWrittenOnTheMainActorKeepsItsIsolation() async {
        let recorder = Recorder<Int>()
        let isolated = AssumedIsolation<Int> { @MainActor value in recorder.record(value) }
        #expect(isolated.isolation === MainActor.shared)
        await MainActor.run { isolated.callAssumingIsolation(7) }
        #expect(recorder.values == [7])
    }

    /// The debug check: a main-actor function called off the main actor traps, instead of racing
    /// with the main actor's code.
    @Test func aDebugBuildTrapsWhenAnIsolatedFunctionIsCalledOffItsActor() async {
        #if DEBUG
        await #expect(processExitsWith: .failure) {
            let isolated = AssumedIsolation<Int> { @MainActor _ in }
            await Task.detached { isolated.callAssumingIsolation(1) }.value
        }
        #endif
    }

    /// The same for a function that returns a value and may throw.
    @Test func aDebugBuildTrapsWhenAnIsolatedThrowingFunctionIsCalledOffItsActor() async {
        #if DEBUG
        await #expect(processExitsWith: .failure) {
            let isolated = AssumedIsolationThrowing<Int, Int> { @MainActor value in value }
            _ = await Task.detached { try? isolated.callAssumingIsolation(1) }.value
        }
        #endif
    }

    /// The same for a function that returns a value (an operator's transform).
    @Test func aDebugBuildTrapsWhenAnIsolatedReturningFunctionIsCalledOffItsActor() async {
        #if DEBUG
        await #expect(processExitsWith: .failure) {
            let isolated = AssumedIsolationReturning<Int, Int> { @MainActor value in value }
            _ = await Task.detached { isolated.callAssumingIsolation(1) }.value
        }
        #endif
    }

    @Test func aNonisolatedFunctionIsRefusedWhereAnIsolatedOneIsExpected() async {
        await #expect(processExitsWith: .failure) {
            _ = AssumedIsolation<Int> { @MainActor _ in }.nonisolatedFunction
        }
    }
}

private struct Refused: Error {}
