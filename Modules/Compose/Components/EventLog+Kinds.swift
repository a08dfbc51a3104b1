import ComposeEmitters

extension EventLog.Event.Kind {
    /// A component appeared, disappeared, was created or was destroyed.
    public static let lifecycle = Self(rawValue: "lifecycle")
    /// A host navigated along a deep link or routing path (its payload is the path).
    public static let deepLink = Self(rawValue: "deepLink")
    /// A dynamic component was asked to leave: `destroy()`, `isPresented = false`, a sheet
    /// dismissed (its payload is whether it did).
    public static let dismissal = Self(rawValue: "dismissal")
    /// A view layer made a component visible or not (its payload is which).
    public static let visibility = Self(rawValue: "visibility")
}
