import Compose

/// A recording as one self-contained page (no script, no external file): the timeline of inputs,
/// and for each step the diff of every store that changed, the results services returned, and
/// the router stacks after it. Written as well-formed XHTML, so any XML parser reads it.
struct SessionPage {
    let recording: SessionRecording
    let title: String

    init(_ recording: SessionRecording, title: String) {
        self.recording = recording
        self.title = title
    }

    var html: String {
        var body = "<h1>\(escape(recording.root)) · \(escape(title))</h1>\n"
        body += "<p>Schema version \(recording.version), \(recording.steps.count) steps"
        if let last = recording.steps.last { body += ", \(last.time.sessionDescription)" }
        body += ".</p>\n"
        if let dropped = recording.dropped {
            body += "<p class=\"dropped\">The first \(dropped.steps) steps were dropped to stay under "
            body += "\(recording.maximumBytes) bytes; the page starts from the state they led to.</p>\n"
        }
        body += timeline()
        var before = recording.dropped?.checkpoint ?? SessionRecording.Checkpoint()
        for (step, after) in zip(recording.steps, recording.states) {
            body += section(step, before: before, after: after)
            before = after
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE html>
            <html xmlns="http://www.w3.org/1999/xhtml" lang="en">
            <head>
            <meta charset="utf-8"/>
            <title>\(escape(recording.root)) session: \(escape(title))</title>
            <style>\(Self.style)</style>
            </head>
            <body>
            \(body)</body>
            </html>

            """
    }

    private func timeline() -> String {
        var html = "<ol class=\"timeline\">\n"
        for step in recording.steps {
            let input = step.input?.description ?? "start"
            html += "<li><a href=\"#step-\(step.number)\"><span class=\"time\">\(step.time.sessionDescription)</span> "
            html += "\(step.number). \(escape(input))</a></li>\n"
        }
        return html + "</ol>\n"
    }

    private func section(
        _ step: SessionRecording.Step, before: SessionRecording.Checkpoint, after: SessionRecording.Checkpoint
    ) -> String {
        var html = "<section class=\"step\" id=\"step-\(step.number)\">\n"
        html += "<h2>Step \(step.number) <span class=\"time\">\(step.time.sessionDescription)</span></h2>\n"
        html += "<p class=\"input\">\(escape(step.input?.description ?? "The tree as the recording found it."))</p>\n"
        for result in step.results {
            let value = result.value.map(\.description) ?? "threw: \(result.error ?? "")"
            html += "<p class=\"result\">Result <code>\(escape(result.name))</code>: <code>\(escape(value))</code></p>\n"
        }
        let changed = step.checkpoint.stores.keys.sorted()
        if changed.isEmpty, step.checkpoint.removed.isEmpty {
            html += "<p class=\"quiet\">No store changed.</p>\n"
        }
        for name in changed {
            let old = before.stores[name]?.description ?? ""
            let new = after.stores[name]?.description ?? ""
            html += "<details open=\"open\"><summary>\(escape(name))</summary>\n<pre class=\"diff\">"
            for line in LineDiff.lines(from: old, to: new) {
                switch line {
                case .same(let text): html += "<span class=\"same\">  \(escape(text))</span>\n"
                case .removed(let text): html += "<del>− \(escape(text))</del>\n"
                case .added(let text): html += "<ins>+ \(escape(text))</ins>\n"
                }
            }
            html += "</pre></details>\n"
        }
        for name in step.checkpoint.removed {
            html += "<p class=\"removed\">\(escape(name)) left the tree.</p>\n"
        }
        html += "<table class=\"routers\"><tr><th>Router</th><th>Stack</th></tr>\n"
        for (name, stack) in after.routers.sorted(by: { $0.key < $1.key }) {
            let changedRouter = step.checkpoint.routers[name] != nil ? " class=\"changed\"" : ""
            html += "<tr\(changedRouter)><td>\(escape(name))</td><td>"
            html += stack.isEmpty ? "(root)" : stack.map(escape).joined(separator: " › ")
            html += "</td></tr>\n"
        }
        return html + "</table>\n</section>\n"
    }

    private func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            // Characters XML does not allow (controls other than tab and newline).
            case "\u{0}"..."\u{8}", "\u{B}", "\u{C}", "\u{E}"..."\u{1F}", "\u{FFFE}", "\u{FFFF}": escaped += "\u{FFFD}"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }

    static let style = """
        body { font: 14px/1.4 -apple-system, system-ui, sans-serif; margin: 2em auto; max-width: 60em; padding: 0 1em; }
        .timeline { columns: 2; font-size: 13px; } .timeline a { color: inherit; text-decoration: none; }
        .time { color: #888; font-variant-numeric: tabular-nums; }
        .step { border-top: 1px solid #ddd; margin-top: 1.5em; } .input { font-weight: 600; }
        pre.diff { background: #f7f7f7; padding: .5em; overflow-x: auto; }
        del { background: #fdd; text-decoration: none; } ins { background: #dfd; text-decoration: none; }
        .same { color: #666; } .quiet, .removed { color: #888; } .dropped { background: #ffe; padding: .5em; }
        table.routers { border-collapse: collapse; } .routers td, .routers th { border: 1px solid #ddd; padding: 2px 6px; text-align: left; }
        tr.changed { background: #eef; }
        """
}
