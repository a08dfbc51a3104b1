// The app-like state scenario's workload: what an app's screen state holds and how its writes
// arrive. `AppState`, `AppModel` and their writes are generated (Generated/States.swift); this
// file holds the values they write and the seeded plan of writes.

/// An address, nested in the state: three heap strings.
struct AppAddress: Equatable, Sendable {
    var street = "1 Infinite Loop, Building 4, Floor 2"
    var city = "Cupertino, Santa Clara County"
    var zip = "95014-2083, United States"
}

/// Preferences, nested in the state.
struct AppPreferences: Equatable, Sendable {
    var theme = "a dark theme with high contrast"
    var fontSize = 14
    var notifications = true
}

/// The values the writes write: heap strings (longer than the 15 bytes a `String` holds inline),
/// all distinct, so that no write leaves its field as it was.
enum AppValues {
    /// The length of every list field.
    static let listCount = 100
    /// The keys of every dictionary field.
    static let keys = (0..<50).map { "setting.key.number.\($0)" }

    static let initialString = "an initial value long enough for the heap"
    static let initialList = (0..<listCount).map { "list element \($0), a string on the heap" }
    static let initialTags = Dictionary(uniqueKeysWithValues: keys.map { ($0, "initial value of \($0)") })
    static let initialCounters = Dictionary(uniqueKeysWithValues: keys.map { ($0, 0) })
}

/// One write of the plan: a field of `AppState` (or `AppState.fieldCount`, the write of the three
/// fields of `AppState.mutatedFields` at once), and, for a list or a dictionary, the element or
/// key it writes.
struct AppWrite: Sendable {
    var field: Int
    var index: Int
}

/// The values one write writes. Made ahead of the measured loop, as an app's values arrive made
/// (from the keyboard, the network): the scenario measures writing them, not making them.
struct AppValue: Sendable {
    var string: String
    var otherString: String
    var number: Int
}

/// The writes of one iteration, drawn at random once (seeded), each field equally likely and the
/// three-field write as likely as one field, and the values of two iterations in turn: every
/// write of an iteration writes values no write of the iteration before wrote, so every write
/// changes what it writes.
struct AppPlan: Sendable {
    let writes: [AppWrite]
    /// `values[iteration % 2][write]`.
    let values: [[AppValue]]
    /// The fields the observers observe, one entry per observer.
    let observed: [Int]
    /// The observer calls one iteration makes: each write calls every observer of each field it
    /// changes, once.
    let expectedCalls: Int

    init(writes count: Int, observers: Int, seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        observed = (0..<observers).map { _ in Int.random(in: 0..<AppState.fieldCount, using: &generator) }
        writes = (0..<count).map { _ in
            let field = Int.random(in: 0...AppState.fieldCount, using: &generator)
            let elements = AppState.elementCounts[field]
            return AppWrite(field: field, index: elements == 0 ? 0 : Int.random(in: 0..<elements, using: &generator))
        }
        values = (0..<2).map { parity in
            (0..<count).map { write in
                let number = 1 + parity * count + write
                return AppValue(
                    string: "value \(number) of a string that lives on the heap",
                    otherString: "other value \(number) of a string that lives on the heap",
                    number: number
                )
            }
        }
        var observersPerField = [Int](repeating: 0, count: AppState.fieldCount)
        for field in observed { observersPerField[field] += 1 }
        expectedCalls = writes.reduce(0) { calls, write in
            let fields = write.field == AppState.fieldCount ? AppState.mutatedFields : [write.field]
            return calls + fields.reduce(0) { $0 + observersPerField[$1] }
        }
    }

    /// Performs one iteration's writes through `write`, the values of `iteration`'s parity, and
    /// checks that they made exactly the observer calls the plan implies.
    @inline(__always)
    func perform(iteration: Int, calls: Calls, _ write: (AppWrite, AppValue) -> Void) {
        let before = calls.count
        let values = self.values[iteration % 2]
        for index in writes.indices {
            write(writes[index], values[index])
        }
        let made = calls.count - before
        precondition(
            made == expectedCalls,
            "made \(made) observer calls, not \(expectedCalls): the contenders must do the same work"
        )
    }
}
