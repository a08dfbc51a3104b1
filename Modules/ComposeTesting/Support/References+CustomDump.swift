import ComposeRefs
import CustomDump

// References show in failure diffs as the values they hold, not as the machinery that shares
// them (entities, locks, registries, listeners): a missing note is one line of a diff.

extension Ref: CustomDumpRepresentable {
    /// The value, or `"empty"` for a `@Ref` that has none yet.
    public var customDumpValue: Any {
        isEmpty ? "empty" : wrappedValue
    }
}

extension RefCollection: CustomDumpRepresentable {
    /// The values, in order.
    public var customDumpValue: Any {
        wrappedValue
    }
}

extension Referred: CustomDumpRepresentable {
    /// The entity's value.
    public var customDumpValue: Any {
        value
    }
}

extension ReferredCollection: CustomDumpRepresentable {
    /// The entities' values, in order.
    public var customDumpValue: Any {
        map(\.value)
    }
}
