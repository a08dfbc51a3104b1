import ComposeStore
import ComposeTestSupport
import Foundation
import Testing

@testable import ComposePersistence

/// Dates survive a save exactly, and stay readable in the file. Found by the persistence fuzzer:
/// with JSON's ISO 8601 strategy a `Date()` came back up to a second earlier.
@Suite struct DateTests {
    struct Visit: AnyState, Codable {
        var at = Date(timeIntervalSinceReferenceDate: 0)
        var history: [Date] = []
    }

    static let dates: [Date] = [
        Date(),
        Date(timeIntervalSinceReferenceDate: 0),
        Date(timeIntervalSinceReferenceDate: 0.5),
        Date(timeIntervalSinceReferenceDate: 1.0e-7),  // an exponent in `description`
        Date(timeIntervalSinceReferenceDate: 785_000_000.000_123_456_7),
        Date(timeIntervalSince1970: -1.25),  // before 1970
        Date(timeIntervalSince1970: 1_700_000_000.987_654_321),
        Date.distantPast, Date.distantFuture,
        Date(timeIntervalSinceReferenceDate: 1e15),  // beyond year 9999: a number
        // Just before the reference date: the fraction of -1 + 0.9 is not exact, a number.
        Date(timeIntervalSinceReferenceDate: -0.1), Date(timeIntervalSinceReferenceDate: -0.3),
        Date(timeIntervalSinceReferenceDate: -1e-9), Date(timeIntervalSinceReferenceDate: -1e-300),
        Date(timeIntervalSinceReferenceDate: -0.5), Date(timeIntervalSinceReferenceDate: -0.999_999_9),
        Date(timeIntervalSinceReferenceDate: -0.0),  // its sign survives: a number
    ]

    /// To the last bit: -0.0 comes back as -0.0, not as the equal +0.0.
    @Test func negativeZeroKeepsItsSign() throws {
        let storage = InMemoryPersistentStorage()
        let store = Store<Visit>(storage: storage)
        store.at = Date(timeIntervalSinceReferenceDate: -0.0)
        try store.persistence.save()
        let restored = Store<Visit>(
            wrappedValue: Visit(at: Date(timeIntervalSinceReferenceDate: 5)),
            storage: InMemoryPersistentStorage(data: storage.data))
        #expect(try restored.persistence.restore())
        #expect(restored.at.timeIntervalSinceReferenceDate.bitPattern == (-0.0 as Double).bitPattern)
    }

    /// A date no calendar holds (an infinite or NaN interval) is not saved: the save throws and
    /// says why, and what was saved before stays.
    @Test(arguments: [Double.infinity, -Double.infinity, Double.nan])
    func aDateNoCalendarHoldsIsAClearErrorOnSave(seconds: Double) throws {
        let storage = InMemoryPersistentStorage()
        let store = Store<Visit>(storage: storage)
        try store.persistence.save()
        let before = storage.data
        store.at = Date(timeIntervalSinceReferenceDate: seconds)
        #expect {
            try store.persistence.save()
        } throws: { error in
            guard case .encodingFailed = error as? PersistenceError else { return false }
            return true
        }
        #expect(storage.data == before)
    }

    /// Dates in the second and a half either side of the reference date, 20,000 of them (seeded),
    /// and ten just before it: each exact, as text where the text can hold it.
    @Test func everyDateAroundTheReferenceDateComesBackExactly() throws {
        var generator = SplitMix64(seed: 2001)
        for index in 0..<20_000 {
            let seconds = index < 10 ? -Double(index) * 1e-12 : Double.random(in: -1.5...1.5, using: &generator)
            let date = Date(timeIntervalSinceReferenceDate: seconds)
            let back = PersistedDate.text(for: date).flatMap(PersistedDate.date(from:)) ?? date
            #expect(back == date, "\(seconds)")
        }
        #expect(PersistedDate.text(for: Date(timeIntervalSinceReferenceDate: -0.75)) == "2000-12-31T23:59:59.25Z")
    }

    @Test(arguments: dates)
    func aDateComesBackExactly(date: Date) throws {
        let storage = InMemoryPersistentStorage()
        let store = Store<Visit>(storage: storage)
        store.at = date
        store.history = [date, date.addingTimeInterval(0.001)]
        try store.persistence.save()

        let restored = Store<Visit>(storage: InMemoryPersistentStorage(data: storage.data))
        #expect(try restored.persistence.restore())
        #expect(restored.at == date, "\(restored.at.timeIntervalSinceReferenceDate) != \(date.timeIntervalSinceReferenceDate)")
        #expect(restored.state == store.state)
    }

    @Test func datesAreReadableInTheFile() throws {
        func text(_ date: Date) -> String? { PersistedDate.text(for: date) }
        #expect(text(Date(timeIntervalSince1970: 1_779_357_600)) == "2026-05-21T10:00:00Z")
        #expect(text(Date(timeIntervalSince1970: 1_779_357_600.25)) == "2026-05-21T10:00:00.25Z")
        #expect(text(Date(timeIntervalSinceReferenceDate: 1.0e-7)) == "2001-01-01T00:00:00.0000001Z")
    }

    @Test func theCalendarArithmeticAgreesWithFoundation() {
        // 2,000 seeded whole-second dates from year 1 to 9999, a leap day and 1970 included.
        var seed: UInt64 = 2026
        func next() -> UInt64 {
            seed &+= 0x9E37_79B9_7F4A_7C15
            var z = seed
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        let first = Date.distantPast.timeIntervalSinceReferenceDate  // 0001-01-01
        let span = Date(timeIntervalSinceReferenceDate: 252_423_993_599).timeIntervalSinceReferenceDate - first  // to 9999-12-31
        var dates = [Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 951_782_400), Date(timeIntervalSince1970: -1)]
        for _ in 0..<2_000 {
            dates.append(Date(timeIntervalSinceReferenceDate: (first + Double(next() % UInt64(span))).rounded(.down)))
        }
        // Foundation's calendar switches to the Julian one before 15 October 1582; ISO 8601, and
        // `PersistedDate`, continue the Gregorian one backwards. They agree from 1583 on.
        let gregorianEverywhere = Date(timeIntervalSince1970: -12_212_553_600)  // 1583-01-01
        for date in dates {
            let text = PersistedDate.text(for: date)
            if date >= gregorianEverywhere {
                #expect(text == date.formatted(.iso8601), "\(date.timeIntervalSinceReferenceDate)")
            }
            #expect(text.flatMap(PersistedDate.date(from:)) == date)
        }
    }

    @Test func handWrittenTimestampsRestore() {
        let noon = Date(timeIntervalSince1970: 1_779_364_800)  // 2026-05-21T12:00:00Z
        #expect(PersistedDate.date(from: "2026-05-21T12:00:00Z") == noon)
        #expect(PersistedDate.date(from: "2026-05-21T14:00:00+02:00") == noon)
        #expect(PersistedDate.date(from: "2026-05-21T14:00:00.5+02:00") == noon.addingTimeInterval(0.5))
        #expect(PersistedDate.date(from: "2026-05-21T12:00:00.Z") == nil)
        #expect(PersistedDate.date(from: "yesterday") == nil)
        #expect(PersistedDate.date(from: "2020-01-02T03:04:0.5Z") == nil)  // Foundation's parser took this
        #expect(PersistedDate.date(from: "2023-02-29T00:00:00Z") == nil)  // not a leap year
        #expect(PersistedDate.date(from: "2024-02-29T00:00:00Z") != nil)
        #expect(PersistedDate.date(from: "2026-05-21T24:00:00Z") == nil)
        #expect(PersistedDate.date(from: "2026-05-21T12:00:00Z trailing") == nil)
    }

    @Test func aSaveWithWholeSecondTimestampsStillRestores() throws {
        // Saves written before fractions were kept.
        let json =
            #"{"compose":1,"version":1,"savedAt":"2026-11-21T10:00:00Z","state":{"at":"2026-05-21T12:00:00Z","history":[]}}"#
        let store = Store<Visit>(storage: InMemoryPersistentStorage(data: Data(json.utf8)))
        #expect(try store.persistence.restore())
        #expect(store.at == Date(timeIntervalSince1970: 1_779_364_800))
    }
}
