import Compose
import Testing

/// README's getting-started snippet, compiled and run. `Scripts/check-readme` fails CI when the
/// README's copy and this one drift apart.
@Suite struct ReadmeTests {
    @Test func gettingStarted() {
        // README: getting-started begin
        /// A log-in form's events, as a component declares them.
        struct LogInEvents {
            let email = ValueEmitter<String>(label: "LogIn.email")
            let submit = SignalEmitter(label: "LogIn.submit")
        }

        let events = LogInEvents()
        let scope = ObservationScope(label: "LogIn")

        scope.run {
            // Each distinct address, once typing has paused for 300 ms.
            events.email.undup().debounce(interval: .milliseconds(300)) += { email in
                print("Checking \(email)...")
            }
            // Every submit, with the address typed so far.
            events.submit += {
                print("Logging in as \(events.email.lastValue ?? "nobody")")
            }
        }

        events.email.send("jill@example.com")
        events.submit.send()  // Logging in as jill@example.com

        scope.end()  // every observer above is cancelled
        events.submit.send()  // nothing happens
        // README: getting-started end

        #expect(events.email.lastValue == "jill@example.com")
        #expect(events.email.subscriberCount == 0)
        #expect(events.submit.subscriberCount == 0)
    }
}
