import ComposeStore
import Foundation

/// A persisted state whose shape changed between versions of an app.
///
/// Every save records the state's ``persistenceVersion``. Restoring a save made with an older
/// version hands its state's JSON to ``migrate(_:from:)`` before decoding.
///
/// ```swift
/// extension State: MigratableState {
///     static var persistenceVersion: Int { 2 }
///
///     static func migrate(_ json: Data, from version: Int) throws -> Data {
///         // Version 1 called the field "mail".
///         var object = try JSONSerialization.jsonObject(with: json) as! [String: Any]
///         object["email"] = object.removeValue(forKey: "mail")
///         return try JSONSerialization.data(withJSONObject: object)
///     }
/// }
/// ```
///
/// A state that does not conform is version 1 and is never migrated.
public protocol MigratableState: AnyState, Codable {
    /// The current version of the state's persisted shape; 1 or more.
    static var persistenceVersion: Int { get }

    /// Turns the JSON of a state saved at `version` into the JSON of the current version.
    ///
    /// - Throws: Any error; restoring then throws ``PersistenceError/migrationFailed(location:fromVersion:reason:)``
    ///   and leaves the state and the save as they are.
    static func migrate(_ json: Data, from version: Int) throws -> Data
}
