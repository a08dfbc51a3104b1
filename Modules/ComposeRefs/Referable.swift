/// What a value must be to be shared by `@Ref` and `@RefCollection`: `Codable` (a state holding
/// it can be persisted), `Equatable` (only actual changes propagate), `Identifiable` (its id
/// names the entity) and `Sendable` (stores on any thread share it).
///
/// ```swift
/// struct SpecimenModel: Codable, Equatable, Identifiable {
///     var id: String
///     var name: String
/// }
/// ```
///
/// Make `ID` a value type (a `String`, a `UUID`, an integer): it is hashed and compared from any
/// thread.
public typealias RefValue = Codable & Equatable & Identifiable & Sendable

/// A model type that refs share, declared in one word: `struct SpecimenModel: Referable`.
///
/// The same as listing ``RefValue``'s protocols, with one difference that matters in a main-actor
/// app target (`.defaultIsolation(MainActor.self)`): there, a type that lists `Codable` and
/// `Equatable` itself gets main-actor isolated conformances to them, which stores reading it on
/// other threads cannot use, while a type conforming to `Referable`, a `Sendable` protocol, is
/// inferred nonisolated, as a value shared between threads must be.
///
/// ```swift
/// struct SpecimenModel: Referable {
///     var id: String
///     var name: String
/// }
/// ```
public protocol Referable: RefValue {}
