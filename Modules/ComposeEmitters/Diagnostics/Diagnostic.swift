/// A misuse of Compose found at run time, reported instead of crashing or passing silently.
///
/// Examples: pushing a route to a dynamic component that was never created, popping a router's
/// root, a component observing its parent's emitter. The operation that found it leaves
/// everything as it was and reports it through ``Diagnostics``.
public struct Diagnostic: Sendable, CustomStringConvertible {
    /// What area of Compose found it, such as `routing` or `components`.
    public let domain: String
    /// What happened and what to do about it.
    public let message: String
    /// Where the misuse was made, when known.
    public let fileID: String
    /// The line of ``fileID`` where the misuse was made, when known.
    public let line: UInt

    /// A diagnostic in `domain` saying `message`, made at `fileID` and `line`.
    ///
    /// - Parameters:
    ///   - domain: What area of Compose found it, such as `routing`.
    ///   - message: What happened and what to do about it.
    ///   - fileID: Where the misuse was made; the caller's file by default.
    ///   - line: The line of the misuse; the caller's line by default.
    public init(domain: String, message: String, fileID: String = #fileID, line: UInt = #line) {
        self.domain = domain
        self.message = message
        self.fileID = fileID
        self.line = line
    }

    /// `[Compose routing] <message> (<file>:<line>)`.
    public var description: String {
        "[Compose \(domain)] \(message) (\(fileID):\(line))"
    }
}
