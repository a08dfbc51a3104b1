/// What a value must be to be shared by `@Ref` and `@RefCollection`: `Codable` (a state holding
/// it can be persisted), `Equatable` (only actual changes propagate), `Identifiable` (its id
/// names the entity) and `Sendable` (stores on any thread share it).
///
/// ```swift
/// struct SpecimenModel: Codable, Equatable, Identifiable, Sendable {
///     var id: String
///     var name: String
/// }
/// ```
///
/// Make `ID` a value type (a `String`, a `UUID`, an integer): it is hashed and compared from any
/// thread.
public typealias Referable = Codable & Equatable & Identifiable & Sendable
