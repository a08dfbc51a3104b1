import Foundation
import Testing

@testable import Compose

/// The recording's file: written and read back whole; anything else refused with the line and
/// the reason, a schema version it does not read named.
@Suite struct SessionFileTests {
    static let header = #"{"format":"compose-session","maximumBytes":4096,"root":"App","version":1}"#
    static let step0 = #"{"checkpoint":{"stores":{"App.state":{"value":{"count":0}}}},"step":0,"time":0}"#
    static let step1 =
        #"{"checkpoint":{"stores":{"App.state":{"value":{"count":1}}}},"input":{"send":{"component":"App","emitter":"add","value":1}},"step":1,"time":0.25}"#

    static func read(_ lines: String...) throws(SessionRecording.FormatError) -> SessionRecording {
        try SessionRecording(jsonLines: Data(lines.joined(separator: "\n").utf8))
    }

    @Test func aFileIsReadAsWritten() throws {
        let recording = try Self.read(Self.header, Self.step0, Self.step1)
        #expect(recording.root == "App")
        #expect(recording.steps.map(\.number) == [0, 1])
        #expect(recording.steps[1].time == .milliseconds(250))
        #expect(
            recording.steps[1].input
                == .send(.init(component: "App", emitter: "add", label: nil, value: .integer(1))))
        #expect(
            String(decoding: recording.jsonLines, as: UTF8.self)
                == [Self.header, Self.step0, Self.step1, ""].joined(separator: "\n"))
        #expect(
            recording.states.map { $0.stores["App.state"] } == [
                .value(.object(["count": .integer(0)])), .value(.object(["count": .integer(1)])),
            ])
    }

    @Test func membersItDoesNotKnowAreIgnored() throws {
        let recording = try Self.read(
            #"{"format":"compose-session","maximumBytes":4096,"root":"App","version":1,"app":"1.2"}"#,
            #"{"checkpoint":{},"step":0,"time":0,"note":"later versions may add members"}"#)
        #expect(recording.steps.count == 1)
    }

    @Test func anotherSchemaVersionIsRefusedByName() {
        #expect(
            throws: SessionRecording.FormatError(
                line: 1, reason: "it was written with schema version 2; this Compose reads version 1")
        ) {
            try Self.read(#"{"format":"compose-session","maximumBytes":4096,"root":"App","version":2}"#, Self.step0)
        }
        #expect(
            throws: SessionRecording.FormatError(
                line: 1, reason: "it was written with schema version 0; this Compose reads version 1")
        ) {
            try Self.read(#"{"format":"compose-session","maximumBytes":4096,"root":"App","version":0}"#)
        }
    }

    @Test func whatIsNotARecordingIsRefusedWithItsLine() throws {
        #expect(throws: SessionRecording.FormatError(line: 1, reason: "the file is empty")) { try Self.read("") }
        #expect(throws: SessionRecording.FormatError.self) { try Self.read("not json") }
        #expect(throws: SessionRecording.FormatError(line: 1, reason: #"its format is "other", not "compose-session""#)) {
            try Self.read(#"{"format":"other","maximumBytes":4096,"root":"App","version":1}"#)
        }
        #expect(throws: SessionRecording.FormatError(line: 4, reason: "step 1 comes where step 2 should")) {
            try Self.read(Self.header, Self.step0, Self.step1, Self.step1)
        }
        let error = try #require(throws: SessionRecording.FormatError.self) {
            try Self.read(Self.header, Self.step0, #"{"step":1}"#)
        }
        #expect(error.line == 3)
        #expect(error.description.hasPrefix("Not a readable session recording (line 3): the line is not a step"))
        let input = try #require(throws: SessionRecording.FormatError.self) {
            try Self.read(Self.header, #"{"checkpoint":{},"input":{"send":{},"link":{}},"step":0,"time":0}"#)
        }
        #expect(input.line == 2)
    }

    @Test func aDroppedMarkerStartsTheState() throws {
        let recording = try Self.read(
            Self.header,
            #"{"dropped":{"checkpoint":{"stores":{"App.state":{"value":{"count":5}}}},"steps":6,"time":3}}"#,
            #"{"checkpoint":{"stores":{"App.state":{"value":{"count":6}}}},"input":{"end":{}},"step":6,"time":4}"#)
        #expect(recording.dropped?.steps == 6)
        #expect(recording.startingState.stores["App.state"] == .value(.object(["count": .integer(5)])))
        #expect(recording.states.last?.stores["App.state"] == .value(.object(["count": .integer(6)])))
        #expect(try SessionRecording(jsonLines: recording.jsonLines) == recording)
    }

    /// Times are written to the nanosecond and read back exactly, so a replay reaches a
    /// debounce's deadline when the recording did.
    @Test(arguments: [Duration.zero, .milliseconds(300), .nanoseconds(1), .seconds(86_400) + .nanoseconds(999_999_999)])
    func timesSurviveTheFile(time: Duration) throws {
        let step = SessionRecording.Step(number: 0, time: time, input: nil, checkpoint: .init())
        let read = try JSONDecoder().decode(SessionRecording.Step.self, from: SessionRecording.line(step))
        #expect(read.time == time)
    }

    @Test func valuesKeepTheirKind() throws {
        let value = try SessionValue(encoding: ["a": [1.5, 2, -3], "b": [Double.greatestFiniteMagnitude]])
        #expect(
            value
                == .object([
                    "a": .array([.number(1.5), .integer(2), .integer(-3)]), "b": .array([.number(.greatestFiniteMagnitude)]),
                ]))
        #expect(try value.decode(as: [String: [Double]].self) == ["a": [1.5, 2, -3], "b": [.greatestFiniteMagnitude]])
        #expect(try SessionValue(encoding: Int64.max) == .integer(.max))
        #expect(try SessionValue(encoding: "text") == .string("text"))
        #expect(try SessionValue(encoding: [Bool?.none, true]) == .array([.null, .bool(true)]))
    }

    /// What the recorder's encoder makes of a value is what `JSONEncoder` and decoding its text
    /// make of it.
    struct Sample: Codable {
        enum Kind: Codable { case plain, tagged(String, count: Int) }
        var text = "quote \" slash / tab \t bell \u{7} é 😀"
        var integers: [Int64] = [0, -1, .max, .min]
        var unsigned: UInt64 = .max
        var small: UInt8 = 7
        var doubles: [Double] = [1.5, 2, -0.25, 1e-7, 1e20, 123_456_789.125]
        var floats: [Float] = [1.1, 0.5, 3]
        var optional: String? = nil
        var present: String? = "here"
        var date = Date(timeIntervalSinceReferenceDate: 12.5)
        var data = Data([0, 1, 2, 255])
        var url = URL(string: "https://example.com/a?b=c")!
        var byID: [Int: String] = [1: "one", 20: "twenty"]
        var byName: [String: [Bool]] = ["a": [true, false], "": []]
        var kinds: [Kind] = [.plain, .tagged("x", count: 2)]
        var nested = [[1, 2], []]
        @Redacted var secret = "hunter2"
    }

    @Test func theEncoderAgreesWithJSONEncoder() throws {
        for redacting in [false, true] {
            let encoder = JSONEncoder()
            if redacting { encoder.userInfo[.composeSessionRecording] = true }
            let viaText = try JSONDecoder().decode(SessionValue.self, from: encoder.encode(Sample()))
            var direct = SessionValueEncoder()
            if redacting { direct.userInfo[.composeSessionRecording] = true }
            #expect(try direct.encode(Sample()) == viaText)
        }
        #expect(throws: EncodingError.self) { try SessionValueEncoder().encode([Double.infinity]) }
        #expect(throws: EncodingError.self) { try JSONEncoder().encode([Double.infinity]) }
    }

    /// The recorder's JSON text reads back as the value it wrote, and is `JSONEncoder`'s text
    /// where the value holds no fractional number (whose digits the two may write differently).
    @Test func theTextAgreesWithJSONEncoder() throws {
        let value = try SessionValue(encoding: Sample(), redacting: false)
        #expect(try JSONDecoder().decode(SessionValue.self, from: Data(value.jsonText.utf8)) == value)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let noFractions = SessionValue.object([
            "a": .array([.integer(1), .null, .bool(true), .string("x\"/\n\u{1}")]), "b": .object([:]),
        ])
        #expect(noFractions.jsonText == String(decoding: try encoder.encode(noFractions), as: UTF8.self))
    }
}
