import ComposeEmitters

/// A two-way binding to a value in a store: `$state.binding.email`.
///
/// ```swift
/// let email = $state.binding.email
/// email.wrappedValue = "jill@example.com"   // a keyed write to the store
/// ```
///
/// Member lookup goes deeper (`$state.binding.address.street`). A SwiftUI adapter turns one into
/// `SwiftUI.Binding(get: binding.get, set: binding.set)`. Reads and writes go through the store's
/// keyed access: O(1) for a stored property, and Observation hears only about this key path.
@dynamicMemberLookup
public struct StoreBinding<State: AnyState, Value>: @unchecked Sendable {
    // Unchecked: a key path is an immutable value, and every key path here is built from the
    // `Sendable` key path literals of member lookup.
    let storage: StoreStorage<State>
    let keyPath: WritableKeyPath<State, Value>

    /// The value in the store.
    public var wrappedValue: Value {
        get { storage.read(keyPath) }
        nonmutating set {
            // A view's edit: what a session recording records as an input.
            if EventLog.isRecording(.binding) { storage.logBindingWrite(keyPath, newValue) }
            storage.write(keyPath, newValue)
        }
    }

    /// Reads the value; for `SwiftUI.Binding(get:set:)`.
    public func get() -> Value {
        wrappedValue
    }

    /// Writes the value; for `SwiftUI.Binding(get:set:)`.
    public func set(_ value: Value) {
        wrappedValue = value
    }

    /// A binding to a member of the value.
    public subscript<Member>(
        dynamicMember member: any WritableKeyPath<Value, Member> & Sendable
    ) -> StoreBinding<State, Member> {
        StoreBinding<State, Member>(storage: storage, keyPath: keyPath.appending(path: member))
    }
}

extension Store {
    /// A binding to the whole state, whose members are bindings to the state's properties:
    /// `$state.binding.email`.
    public var binding: StoreBinding<State, State> {
        StoreBinding(storage: storage, keyPath: \State.self)
    }
}
