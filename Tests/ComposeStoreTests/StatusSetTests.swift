import ComposeStore
import Foundation
import Testing

@Suite struct StatusSetTests {
    enum Status: String, AnyStatus {
        case loading, saving, failed
    }

    @Test func equalityAndHashIgnoreOrder() {
        let one: StatusSet<Status> = [.loading, .saving]
        let other: StatusSet<Status> = [.saving, .loading]
        #expect(one == other)
        #expect(one.hashValue == other.hashValue)
        #expect(one != [.loading])
    }

    @Test func duplicatesAreKeptOnce() {
        let set: StatusSet<Status> = [.loading, .loading, .saving]
        #expect(set.count == 2)
        #expect(Array(set) == [.loading, .saving])
    }

    @Test func codableRoundTripKeepsTheOrderStatusesWereAdded() throws {
        var set = StatusSet<Status>()
        set += .saving
        set += .loading
        let data = try JSONEncoder().encode(set)
        #expect(String(decoding: data, as: UTF8.self) == #"["saving","loading"]"#)
        let decoded = try JSONDecoder().decode(StatusSet<Status>.self, from: data)
        #expect(decoded == set)
        #expect(Array(decoded) == [.saving, .loading])
    }

    @Test func decodingDropsDuplicatesAndRejectsUnknownStatuses() throws {
        let decoded = try JSONDecoder().decode(StatusSet<Status>.self, from: Data(#"["failed","failed"]"#.utf8))
        #expect(decoded == [.failed])
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(StatusSet<Status>.self, from: Data(#"["nope"]"#.utf8))
        }
    }

    @Test func removingAStatusThatIsNotThereChangesNothing() {
        var set: StatusSet<Status> = [.loading]
        set -= .failed
        #expect(set == [.loading])
        #expect(set.remove(.failed) == false)
        set.removeAll()
        #expect(set.isEmpty)
    }
}
