@testable import ComposePersistence
import ComposeStore
import Foundation
import Testing

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
        Date(timeIntervalSinceReferenceDate: 1.0e-7),                      // an exponent in `description`
        Date(timeIntervalSinceReferenceDate: 785_000_000.000_123_456_7),
        Date(timeIntervalSince1970: -1.25),                                // before 1970
        Date(timeIntervalSince1970: 1_700_000_000.987_654_321),
        Date.distantPast, Date.distantFuture,
        Date(timeIntervalSinceReferenceDate: 1e15),                        // beyond year 9999: a number
    ]

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

    @Test func handWrittenTimestampsRestore() {
        let noon = Date(timeIntervalSince1970: 1_779_364_800)  // 2026-05-21T12:00:00Z
        #expect(PersistedDate.date(from: "2026-05-21T12:00:00Z") == noon)
        #expect(PersistedDate.date(from: "2026-05-21T14:00:00+02:00") == noon)
        #expect(PersistedDate.date(from: "2026-05-21T14:00:00.5+02:00") == noon.addingTimeInterval(0.5))
        #expect(PersistedDate.date(from: "2026-05-21T12:00:00.Z") == nil)
        #expect(PersistedDate.date(from: "yesterday") == nil)
    }

    @Test func aSaveWithWholeSecondTimestampsStillRestores() throws {
        // Saves written before fractions were kept.
        let json = #"{"compose":1,"version":1,"savedAt":"2026-11-21T10:00:00Z","state":{"at":"2026-05-21T12:00:00Z","history":[]}}"#
        let store = Store<Visit>(storage: InMemoryPersistentStorage(data: Data(json.utf8)))
        #expect(try store.persistence.restore())
        #expect(store.at == Date(timeIntervalSince1970: 1_779_364_800))
    }
}
