/// How a screen is presented: pushed on its router's stack, or as a sheet.
///
/// Headless, both are routes on a router's stack; a view adapter presents a sheet modally.
public enum Presentation: String, Codable, Hashable, Sendable {
    /// Pushed on the router's stack.
    case push
    /// Presented modally, as a sheet.
    case sheet
}
