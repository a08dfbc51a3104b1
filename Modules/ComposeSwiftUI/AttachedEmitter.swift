#if canImport(SwiftUI)
import ComposeEmitters
import SwiftUI

/// An emitter a view receives from the component that shows it, rather than creating its own.
///
/// ```swift
/// struct ChildView: View {
///     @AttachedEmitter var openLink: SignalEmitter
///
///     var body: some View {
///         Button(emitter: openLink) { Text("Open link") }
///     }
/// }
///
/// // In a component's body:
/// ChildView().attach(openLink, at: \.$openLink)
/// ```
///
/// Subscribe to the emitter in the component's `observers`, not in the view. Until one is
/// attached, the view holds an emitter nobody observes, and reading it reports a `Diagnostic`.
@propertyWrapper
public struct AttachedEmitter<Attached: AttachableEmitter>: DynamicProperty {
    private var attached: Attached?

    /// An emitter to be attached with `attach(_:at:)`.
    public init() {}

    /// The attached emitter.
    public var wrappedValue: Attached {
        if let attached { return attached }
        Diagnostics.report(
            domain: "swiftui", "@AttachedEmitter var of \(Attached.self) read before an emitter was attached with attach(_:at:)")
        return Attached.unattached()
    }

    /// The wrapper itself, for `attach(_:at: \.$name)`.
    public var projectedValue: AttachedEmitter<Attached> {
        get { self }
        set { self = newValue }
    }

    fileprivate mutating func attach(_ emitter: Attached) {
        attached = emitter
    }
}

/// An emitter a view can receive through ``AttachedEmitter``.
public protocol AttachableEmitter: Emitter {
    /// An emitter nobody observes, for a view read before one is attached.
    static func unattached() -> Self
}

extension SignalEmitter: AttachableEmitter {
    public static func unattached() -> SignalEmitter {
        SignalEmitter(label: "unattached")
    }
}

extension ValueEmitter: AttachableEmitter {
    public static func unattached() -> ValueEmitter<Value> {
        ValueEmitter(label: "unattached")
    }
}

extension View {
    /// This view with `emitter` attached to its ``AttachedEmitter`` at `keyPath`:
    /// `ChildView().attach(openLink, at: \.$openLink)`.
    public func attach<Attached: AttachableEmitter>(
        _ emitter: Attached,
        at keyPath: WritableKeyPath<Self, AttachedEmitter<Attached>>
    ) -> Self {
        var view = self
        view[keyPath: keyPath].attach(emitter)
        return view
    }
}
#endif
