import ComposeEmitters
import ComposeTestSupport
import Foundation
import Testing

@testable import ComposeStore

/// A state holding dates where the event log must reach them: Foundation's `Date` traps in its
/// own description when its interval is infinite or NaN.
private struct Agenda: AnyState {
    var at = Date(timeIntervalSinceReferenceDate: 0)
    var maybe: Date? = nil
    var all: [Date] = []
    var byName: [String: Date] = [:]
    var span = Span()
    var kind = Kind.none
    var pair: (Int, end: Date) = (0, Date(timeIntervalSinceReferenceDate: 0))

    struct Span: Sendable {
        var start = Date(timeIntervalSinceReferenceDate: 0)
    }

    enum Kind: Sendable {
        case none
        case due(Date)
        case window(Int, until: Date)

        var bits: [UInt64] {
            switch self {
            case .none: [0]
            case .due(let date): [1, date.timeIntervalSinceReferenceDate.bitPattern]
            case .window(let count, let date): [2, UInt64(count), date.timeIntervalSinceReferenceDate.bitPattern]
            }
        }
    }

    /// Dates compared by their bits, so that a NaN date equals itself; tuples have no `==`.
    static func == (lhs: Self, rhs: Self) -> Bool {
        func bits(_ dates: [Date?]) -> [UInt64?] { dates.map { $0?.timeIntervalSinceReferenceDate.bitPattern } }
        return bits([lhs.at, lhs.maybe, lhs.span.start, lhs.pair.end] + lhs.all)
            == bits([rhs.at, rhs.maybe, rhs.span.start, rhs.pair.end] + rhs.all)
            && lhs.byName.mapValues(\.timeIntervalSinceReferenceDate.bitPattern)
                == rhs.byName.mapValues(\.timeIntervalSinceReferenceDate.bitPattern)
            && lhs.kind.bits == rhs.kind.bits && lhs.pair.0 == rhs.pair.0
    }
}

@Suite struct StoreEventLogDateTests {
    /// The detail `LoggedValue` depends on: Foundation's `Date` has one of the names it knows and
    /// mirrors as one `Double` labelled `timeIntervalSinceReferenceDate`.
    @Test func foundationsDateMirrorsAsTheEventLogExpects() {
        let date = Date(timeIntervalSinceReferenceDate: 12.5)
        #expect(LoggedValue.dateTypeNames.contains(String(reflecting: type(of: date))))
        let children = Array(Mirror(reflecting: date).children)
        #expect(children.count == 1)
        #expect(children.first?.label == "timeIntervalSinceReferenceDate")
        #expect(children.first?.value as? Double == 12.5)
    }

    /// Values that hold no such date print exactly as `String(reflecting:)` prints them.
    @Test func ordinaryValuesPrintAsStringReflectingPrintsThem() {
        let values: [Any] = [
            Date(timeIntervalSinceReferenceDate: 3), Optional(Date(timeIntervalSinceReferenceDate: 3)) as Any,
            [1, 2], ["a": 1], Agenda.Kind.window(1, until: Date(timeIntervalSinceReferenceDate: 4)),
            Agenda.Span(), (1, end: "x"), "text", Double.nan,
        ]
        for value in values {
            #expect(LoggedValue.describe(value) == String(reflecting: value))
        }
    }

    static let unprintable = [Double.infinity, -Double.infinity, Double.nan]

    /// Each place a state can hold a date no calendar holds is logged without stopping the
    /// program, the date printed from its mirror and the rest as `String(reflecting:)` prints it.
    @Test(arguments: unprintable)
    func aDateNoCalendarHoldsIsLoggedFromItsMirror(seconds: Double) async {
        let label = "StoreEventLogDateTests.\(seconds)"
        let store = Store<Agenda>(label: label)
        let events = Recorder<StateMutation>()
        let observation = EventLog.observe { event in
            if event.source == label, let mutation = event.payload as? StateMutation { events.record(mutation) }
        }
        defer { observation.cancel() }

        let bad = Date(timeIntervalSinceReferenceDate: seconds)
        let date = "\(String(reflecting: Date.self))(timeIntervalSinceReferenceDate: \(seconds))"
        let zero = String(reflecting: Date(timeIntervalSinceReferenceDate: 0))
        store.mutate {
            $0.at = bad
            $0.maybe = bad
            $0.all = [Date(timeIntervalSinceReferenceDate: 0), bad]
            $0.byName = ["due": bad]
            $0.span.start = bad
            $0.kind = .window(2, until: bad)
            $0.pair = (1, end: bad)
        }
        store.kind = .due(bad)

        await events.wait(forCount: 2)
        let news = Dictionary(uniqueKeysWithValues: events.values[0].changes.map { ($0.property, $0.new) })
        let kind = String(reflecting: Agenda.Kind.self)
        #expect(news["at"] == date)
        #expect(news["maybe"] == "Optional(\(date))")
        #expect(news["all"] == "[\(zero), \(date)]")
        #expect(news["byName"] == "[\"due\": \(date)]")
        #expect(news["span"] == "\(String(reflecting: Agenda.Span.self))(start: \(date))")
        #expect(news["kind"] == "\(kind).window(2, until: \(date))")
        #expect(news["pair"] == "(1, end: \(date))")
        #expect(events.values[1].changes.map(\.new) == ["\(kind).due(\(date))"])
        #expect(events.values[1].changes.map(\.old) == ["\(kind).window(2, until: \(date))"])
    }

    /// However deep the date lies (a reply tree 30 levels down, arrays nested 20 deep), it is
    /// found: values hold no cycles without a class, so the search has no depth limit.
    @Test func aDateNoCalendarHoldsIsFoundAtAnyDepth() {
        let bad = Date(timeIntervalSinceReferenceDate: .nan)
        let date = "\(String(reflecting: Date.self))(timeIntervalSinceReferenceDate: nan)"
        let tree = Reply.thread(depth: 30, date: bad)
        #expect(LoggedValue.describe(tree).contains(date))
        // Built by calls, its type inferred: the type checker takes a minute over a literal, or
        // a type written out, nested 20 deep, in every build of this target.
        func wrap<Element>(_ element: Element) -> [Element] { [element] }
        let nested = wrap(  // [[...[Date]...]], 20 deep
            wrap(wrap(wrap(wrap(wrap(wrap(wrap(wrap(wrap(wrap(wrap(wrap(wrap(wrap(wrap(wrap(wrap(wrap(wrap(bad))))))))))))))))))))
        #expect(LoggedValue.describe(nested) == String(repeating: "[", count: 20) + date + String(repeating: "]", count: 20))
    }
}

/// A reply with replies: a value tree as deep as a conversation.
private struct Reply: Sendable {
    var at: Date? = nil
    var replies: [Reply] = []

    /// A thread `depth` replies deep, the deepest dated `date`.
    static func thread(depth: Int, date: Date) -> Reply {
        depth == 0 ? Reply(at: date) : Reply(replies: [thread(depth: depth - 1, date: date)])
    }
}
