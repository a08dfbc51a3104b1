#if canImport(SwiftUI)
import ComposeStore
import SwiftUI

extension Binding {
    /// A SwiftUI binding that reads and writes the store through `binding`.
    public init<State>(_ binding: StoreBinding<State, Value>) {
        self.init(get: { binding.get() }, set: { binding.set($0) })
    }
}

extension StoreBinding {
    /// This binding as a `SwiftUI.Binding`, for any control: `Slider(value: $state.binding.volume.swiftUI)`.
    public var swiftUI: Binding<Value> {
        Binding(self)
    }
}

extension TextField where Label == Text {
    /// `TextField("Email", text: $state.binding.email)`: a text field editing a store's value.
    public init<State>(_ titleKey: LocalizedStringKey, text: StoreBinding<State, String>) {
        self.init(titleKey, text: Binding(text))
    }

    /// A text field titled with a string, editing a store's value.
    @_disfavoredOverload
    public init<Title: StringProtocol, State>(_ title: Title, text: StoreBinding<State, String>) {
        self.init(title, text: Binding(text))
    }
}

extension SecureField where Label == Text {
    /// `SecureField("Password", text: $state.binding.password)`.
    public init<State>(_ titleKey: LocalizedStringKey, text: StoreBinding<State, String>) {
        self.init(titleKey, text: Binding(text))
    }
}

extension Toggle where Label == Text {
    /// `Toggle("Remember me", isOn: $state.binding.remember)`.
    public init<State>(_ titleKey: LocalizedStringKey, isOn: StoreBinding<State, Bool>) {
        self.init(titleKey, isOn: Binding(isOn))
    }
}
#endif
