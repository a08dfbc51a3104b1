import Compose

/// The steps of a recording as lines of text: number, time, input, what changed.
struct SessionSummary {
    let recording: SessionRecording

    init(_ recording: SessionRecording) {
        self.recording = recording
    }

    var text: String {
        let steps = recording.steps
        let duration = steps.last.map { $0.time.sessionDescription } ?? "0.000 s"
        var text = Self.printable(recording.root)
        text += ": schema version \(recording.version), \(steps.count) steps, \(duration)\n"
        if let dropped = recording.dropped {
            text += "The first \(dropped.steps) steps were dropped to stay under \(recording.maximumBytes) bytes.\n"
        }
        for step in steps {
            let input = step.input?.description ?? "(start)"
            var line = "\(Self.pad(String(step.number), 4))  \(Self.pad(step.time.sessionDescription, 10))  \(input)"
            let changed = Self.changed(step.checkpoint)
            if !changed.isEmpty { line += "\n      changed: " + changed.joined(separator: ", ") }
            for result in step.results {
                line += "\n      result \(result.name): " + (result.value.map(\.description) ?? "error \(result.error ?? "")")
            }
            text += Self.printable(line) + "\n"
        }
        return text
    }

    /// `text` with control characters (a hostile file's escape sequences, say) shown as `\u{1B}`:
    /// what reaches the terminal is text, never a command.
    static func printable(_ text: String) -> String {
        var printable = ""
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value != 0x0A, value < 0x20 || (0x7F...0x9F).contains(value) {
                printable += "\\u{" + String(value, radix: 16, uppercase: true) + "}"
            } else {
                printable.unicodeScalars.append(scalar)
            }
        }
        return printable
    }

    /// The names of the stores and routers a checkpoint changes, and those that left.
    static func changed(_ checkpoint: SessionRecording.Checkpoint) -> [String] {
        (checkpoint.stores.keys.sorted() + checkpoint.routers.keys.sorted()) + checkpoint.removed.map { "\($0) (gone)" }
    }

    static func pad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }
}
