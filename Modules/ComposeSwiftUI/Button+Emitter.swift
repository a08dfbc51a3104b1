#if canImport(SwiftUI)
import ComposeEmitters
import SwiftUI

extension Button {
    /// A button that sends `emitter` when tapped: `Button(emitter: logIn) { Text("Log in") }`.
    public init(emitter: SignalEmitter, @ViewBuilder label: () -> Label) {
        self.init(action: { emitter.send() }, label: label)
    }

    /// A button that sends `value` on `emitter` when tapped.
    public init<Value: Sendable>(emitter: ValueEmitter<Value>, value: Value, @ViewBuilder label: () -> Label) {
        self.init(action: { emitter.send(value) }, label: label)
    }
}

extension Button where Label == Text {
    /// A button titled with a localized key that sends `emitter` when tapped.
    public init(_ titleKey: LocalizedStringKey, emitter: SignalEmitter) {
        self.init(titleKey, action: { emitter.send() })
    }

    /// A button titled with a string that sends `emitter` when tapped.
    @_disfavoredOverload
    public init<Title: StringProtocol>(_ title: Title, emitter: SignalEmitter) {
        self.init(title, action: { emitter.send() })
    }

    /// A button titled with a localized key that sends `value` on `emitter` when tapped.
    public init<Value: Sendable>(_ titleKey: LocalizedStringKey, emitter: ValueEmitter<Value>, value: Value) {
        self.init(titleKey, action: { emitter.send(value) })
    }
}
#endif
