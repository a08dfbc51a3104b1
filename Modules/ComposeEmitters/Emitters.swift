/// The namespace of the emitters that operators return.
///
/// You rarely name these types: chain operators on any ``Emitter`` and subscribe to the result.
///
/// ```swift
/// emitter.debounce(interval: .seconds(1)).undup() += { value in ... }
/// ```
public enum Emitters {}
