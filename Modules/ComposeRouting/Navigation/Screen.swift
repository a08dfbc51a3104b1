/// A screen of a routing path: a name (the path segment), arguments, and a presentation.
///
/// ```swift
/// struct DetailScreen: Screen {
///     static let name = "detail"
///     let id: Int
///
///     init(id: Int) { self.id = id }
///     init(parameters: ScreenParameters) throws { id = try parameters.required("id") }
///     var parameters: ScreenParameters { ["id": "\(id)"] }
/// }
///
/// struct HomeScreen: ParameterlessScreen {
///     static let name = "home"
/// }
/// ```
///
/// Parsing then printing gives the same parameters: a parameter a screen does not print back
/// is refused as one it does not take (`DeepLinkError.Reason.unexpectedParameter`).
public protocol Screen: Hashable, Sendable {
    /// The path segment naming the screen.
    static var name: String { get }
    /// Parses the screen from its parameters.
    ///
    /// - Throws: Any error, reported as malformed arguments of this screen (a
    ///   ``ScreenParameterError`` from ``ScreenParameters/required(_:as:)`` says which).
    init(parameters: ScreenParameters) throws
    /// The parameters the screen prints.
    var parameters: ScreenParameters { get }
    /// How the screen is presented. `.push` unless the screen says otherwise.
    var presentation: Presentation { get }
}

extension Screen {
    public var presentation: Presentation { .push }
}

/// A screen without parameters.
public protocol ParameterlessScreen: Screen {
    /// The screen.
    init()
}

extension ParameterlessScreen {
    public init(parameters: ScreenParameters) throws {
        self.init()
    }

    public var parameters: ScreenParameters { ScreenParameters() }
}
