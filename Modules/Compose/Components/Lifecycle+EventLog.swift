import ComposeEmitters

extension EventLog.Event.Kind {
    /// A component appeared, disappeared, was created or was destroyed.
    public static let lifecycle = Self(rawValue: "lifecycle")
}
