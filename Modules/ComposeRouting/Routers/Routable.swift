/// A type a ``Router`` can show: a component, or a container of components created at run
/// time (`DynamicComponent`, `InstanceComponent`).
///
/// The `Compose` module conforms its component types; a route whose key path leads to anything
/// else (a string, an emitter) is refused.
public protocol Routable {}
