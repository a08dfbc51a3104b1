import Clocks
import ComposeEmitters
import ComposeTestSupport
import Testing

/// Every example of the Emitters section of Compose's README, run as written, with `print`
/// replaced by a recorder so the comments' promises ("This is executed only once") are checked.
///
/// Where the README does not compile as printed, the smallest fix is applied and named.
@Suite struct SeedExampleTests {
    @Test func signalEmitter() {
        let output = Recorder<String>()
        // Define an emitter that doesn't carry any value.
        let printHello = SignalEmitter()

        // Subscribe to an emitter.
        printHello += {
            output.record("Hello, world!")
        }

        // Later on, emit an event like this:
        printHello.send()

        #expect(output.values == ["Hello, world!"])
    }

    @Test func valueEmitter() {
        let output = Recorder<String>()
        // Define an emitter that carries a certain value.
        let printMessage = ValueEmitter<String>()

        // Subscribe to an emitter.
        printMessage += { message in
            output.record(message)
        }

        // You can subscribe to an emitter many times in different places.
        printMessage += { message in
            output.record("Another subscriber says: \(message)")
        }

        // Later on, emit an event with a value like this:
        printMessage.send("A simple message.")

        #expect(output.values == ["A simple message.", "Another subscriber says: A simple message."])
    }

    @Test func debounce() async {
        let output = Recorder<Void>()
        let clock = TestClock()
        // Define an emitter.
        let emitter = SignalEmitter()

        // The README uses the real clock; a test clock drives the same second by hand.
        emitter.debounce(interval: .seconds(1), clock: clock) += {
            // This is executed only once.
            output.record()
        }

        // Send signal 100 times.
        for _ in 0..<100 {
            emitter.send()
        }

        await clock.settle(by: .milliseconds(999))
        #expect(output.count == 0)
        await clock.advance(by: .milliseconds(1)) { output.count == 1 }
        await clock.settle(by: .seconds(5))
        #expect(output.count == 1)
    }

    @Test func dropFirst() {
        let output = Recorder<String>()
        // Define an emitter.
        let emitter = SignalEmitter()

        emitter.dropFirst() += {
            // This is executed only once.
            output.record("Second signal received!")
        }

        // Send signal 2 times.
        emitter.send()
        emitter.send()

        #expect(output.values == ["Second signal received!"])
    }

    @Test func dropUntil() {
        let output = Recorder<Int>()
        // Define an emitter.
        let emitter = ValueEmitter<Int>()

        // Define another emitter
        let controlEmitter = SignalEmitter()

        emitter.dropUntil(emitter: controlEmitter) += { value in
            // This is executed only with value '300'.
            output.record(value)
        }

        // Send signal 2 times.
        emitter.send(100)
        emitter.send(200)

        controlEmitter.send()

        emitter.send(300)

        #expect(output.values == [300])
    }

    @Test func filterOnlyNot() {
        // Define some value.
        enum MyValue: Equatable {
            case one, two, three
        }
        let output = Recorder<String>()

        // Define an emitter.
        let emitter = ValueEmitter<MyValue>()

        // Filter value using some closure.
        emitter.filter({ $0 == .one }) += { value in
            output.record("One received.")
        }

        // Only listen to a particular value.
        emitter.only(.two) += {
            output.record("Two received.")
        }

        // Listen to values except a particular one.
        emitter.not(.three) += { value in
            output.record("Not 'three' received.")
        }

        // Send different values.
        emitter.send(.one)
        emitter.send(.two)
        emitter.send(.three)

        #expect(
            output.values == [
                "One received.", "Not 'three' received.",
                "Two received.", "Not 'three' received.",
            ]
        )
    }

    @Test func flatMap() {
        let output = Recorder<String>()
        // Define emitters. (The README's `ValueEmitter()` needs its value type; a signal fits.)
        let firstEmitter = SignalEmitter()
        let secondEmitter = SignalEmitter()

        firstEmitter.flatMap {
            secondEmitter
        } += {
            // This is executed only when second emitter is fired after the first emitter.
            output.record("Second emitter fired after the first emitter!")
        }

        secondEmitter.send()  // before the first: not heard
        #expect(output.count == 0)

        // Send signal 2 times
        firstEmitter.send()
        secondEmitter.send()

        #expect(output.values == ["Second emitter fired after the first emitter!"])
    }

    @Test func flatMapOverDynamicallyCreatedEmitters() {
        // The README's `OuterValue` is a struct whose non-mutating `create()` assigns a property,
        // which does not compile; a final class with a locked `innerValue` keeps its shape.
        final class OuterValue: Sendable {
            struct InnerValue {
                let sendData = ValueEmitter<String>()
            }

            let didCreate = SignalEmitter()

            private let inner = Recorder<InnerValue>()
            var innerValue: InnerValue? { inner.values.last }

            func create() {
                inner.record(InnerValue())
                didCreate.send()
            }
        }
        let output = Recorder<String>()

        let value = OuterValue()

        value.didCreate.flatMap {
            value.innerValue?.sendData ?? ValueEmitter<String>()
        } += { value in
            // Will be executed whenever InnerValue's emitter is invoked.
            output.record(value)
        }

        value.create()
        value.innerValue?.sendData.send("super-data-payload")

        // A second inner value replaces the first: the old inner emitter is no longer heard.
        let first = value.innerValue
        value.create()
        first?.sendData.send("stale")
        value.innerValue?.sendData.send("fresh")

        #expect(output.values == ["super-data-payload", "fresh"])
        #expect(first?.sendData.subscriberCount == 0)
    }

    @Test func ignoreOutput() {
        let output = Recorder<String>()
        // Define an emitter.
        let emitter = ValueEmitter<Int>()

        emitter.ignoreOutput() += {
            // No values received by this block.
            output.record("Some values were sent!")
        }

        // Send some values.
        emitter.send(100)
        emitter.send(200)

        #expect(output.values == ["Some values were sent!", "Some values were sent!"])
    }

    @Test func map() {
        let output = Recorder<Int>()
        // Define an emitter.
        let emitter = ValueEmitter<Int>()

        // Map value using a closure.
        emitter.map({ $0 + 10 }) += { value in
            output.record(value)
        }

        // Send different values.
        emitter.send(5)
        emitter.send(10)
        emitter.send(35)

        #expect(output.values == [15, 20, 45])
    }

    @Test func mapErrorToNil() {
        // Define error type
        enum ValueError: Error {
            case customError
        }
        let output = Recorder<Int>()
        let nils = Recorder<Void>()

        // Define an emitter with a result type.
        let emitter = ValueEmitter<Result<Int, ValueError>>()

        // Map value using a closure.
        emitter.mapErrorToNil += { value in
            guard let value = value else {
                nils.record()
                return
            }

            // '100' and '200' received by this block.
            output.record(value)
        }

        // Send different values.
        emitter.send(.success(100))
        emitter.send(.failure(.customError))
        emitter.send(.success(200))

        #expect(output.values == [100, 200])
        #expect(nils.count == 1)
    }

    @Test func merge() {
        let output = Recorder<String>()
        // Define first emitter.
        let first = SignalEmitter()

        // Define second emitter.
        let second = SignalEmitter()

        // Make subscription to each of them and execute the closure when any of them is emitted:
        (first + second) += {
            output.record("First or second emitter event received.")
        }

        first.send()
        second.send()

        #expect(output.count == 2)
    }

    @Test func nonNull() {
        let output = Recorder<Int>()
        // Define an emitter with some optional value.
        let emitter = ValueEmitter<Int?>()

        // Filter value using some closure.
        // This closure will receive only '5' and '100'.
        emitter.nonNull() += { value in
            output.record(value)
        }

        // Send different values.
        emitter.send(5)
        emitter.send(nil)
        emitter.send(nil)
        emitter.send(100)

        #expect(output.values == [5, 100])
    }

    @Test func once() {
        let firstWay = Recorder<Int>()
        let secondWay = Recorder<Int>()
        // Define an emitter with some optional value.
        let emitter = ValueEmitter<Int>()

        // Observe the emitter only once.
        // This will only print '5' and stop observing the emitter.
        emitter.once() += { value in
            firstWay.record(value)
        }

        // There is a handy operator defined to do this more often.
        // This will only print '5' and stop observing the emitter.
        emitter !+= { value in
            secondWay.record(value)
        }

        // Send different values.
        emitter.send(5)
        emitter.send(100)
        emitter.send(30)
        emitter.send(40)

        #expect(firstWay.values == [5])
        #expect(secondWay.values == [5])
        #expect(emitter.subscriberCount == 0)
    }

    @Test func publisher() async {
        // Combine is not available here; the README's `Future` publisher becomes
        // `Emitters.Future`, the same bridge for an async throwing closure.
        struct NetworkError: Error {}
        @Sendable func fetchNetworkDataAsynchronously() async throws -> String { "payload" }
        let output = Recorder<String>()

        // Define a publisher
        let fetchData = Emitters.Future {
            try await fetchNetworkDataAsynchronously()
        }

        // Make emitter from the publisher and subscribe to it immediately.
        fetchData += { result in
            guard let data = try? result.get() else {
                output.record("Error when fetching data!")
                return
            }

            output.record("Fetched data: \(data)")
        }

        await output.wait(forCount: 1)
        #expect(output.values == ["Fetched data: payload"])
    }

    @Test func tap() {
        // Define a complex value.
        struct Profile {
            let firstName: String
            let lastName: String
        }
        let output = Recorder<String>()

        // Define an emitter. (The README's `Emitter<Profile>()` is a `ValueEmitter`.)
        let emitter = ValueEmitter<Profile>()

        // Get only the first name.
        emitter.tap(\.firstName) += { firstName in
            output.record("First name: \(firstName)")
        }

        // Get only the last name.
        emitter.tap(\.lastName) += { lastName in
            output.record("Last name: \(lastName)")
        }

        // Send complex value.
        emitter.send(.init(firstName: "Jill", lastName: "Valentine"))

        #expect(output.values == ["First name: Jill", "Last name: Valentine"])
    }

    @Test func undup() {
        let output = Recorder<Int>()
        // Define an emitter.
        let emitter = ValueEmitter<Int>()

        // Receive values without duplicates.
        emitter.undup() += { value in
            output.record(value)
        }

        // Send different values.
        emitter.send(5)
        emitter.send(5)
        emitter.send(5)
        emitter.send(10)

        #expect(output.values == [5, 10])
    }

    @Test func withCurrent() {
        let withCurrentOutput = Recorder<Int>()
        let plainOutput = Recorder<Int>()
        // Define a value emitter.
        let emitter = ValueEmitter<Int>()

        // Send value before subscribing to an emitter.
        emitter.send(100)

        // Subscribe to an emitter to get last sent value immediately.
        // This closure will receive '100' and '5'.
        emitter.withCurrent() += { value in
            withCurrentOutput.record(value)
        }

        // Subscribe to an emitter and get only values sent afterwards.
        // This closure will receive '5' only.
        emitter += { value in
            plainOutput.record(value)
        }

        // Send different values.
        emitter.send(5)

        #expect(withCurrentOutput.values == [100, 5])
        #expect(plainOutput.values == [5])
    }

    @Test func changeOperatorFires() {
        // `~+=` never fired in the original; here it receives the new and the previous value.
        let output = Recorder<String>()
        let emitter = ValueEmitter<Int>()

        emitter ~+= { new, previous in
            output.record("\(previous.map(String.init) ?? "nil") -> \(new)")
        }

        emitter.send(1)
        emitter.send(2)
        emitter.send(2)

        #expect(output.values == ["nil -> 1", "1 -> 2", "2 -> 2"])
    }
}
