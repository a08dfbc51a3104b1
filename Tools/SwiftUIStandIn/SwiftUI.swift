// A declaration-only stand-in for the parts of SwiftUI that ComposeSwiftUI and the seed's
// SwiftUI examples use, so that `Scripts/check-swiftui` can type-check them on Linux, where
// SwiftUI does not exist. Each declaration cites, in the comment above it, the page of Apple's
// documentation (developer.apple.com/documentation/swiftui) it was checked against on 2026-11-26:
// generic parameters and constraints, argument labels, parameter and closure types (`@escaping`,
// `@Sendable`, `@MainActor`, `@isolated(any)`, result builders), return type, attributes such as
// `@MainActor` and `@preconcurrency`, and conformances. Where the declaration differs from its
// page, a second line says how; where no page was found, the comment says so and what was searched.
//
// Differences that recur, noted per declaration only by a pointer to this header:
// - Apple's pages spell view-building closures `@ContentBuilder`, a type alias for `ViewBuilder`
//   (developer.apple.com/documentation/swiftui/contentbuilder). This stand-in spells the builder
//   `@ViewBuilder`, which the code checked here uses only for closures it writes itself.
// - Apple declares most views, their initializers and the view modifiers used here `nonisolated`.
//   Here a view's `View` conformance, and `extension View`, make them `@MainActor`: stricter for
//   callers, but an extension of such a view in the checked code is main-actor-isolated here and
//   nonisolated against SwiftUI.
// - Apple's `@frozen` and `@export(implementation)`, which concern library evolution and inlining,
//   are left out throughout and not noted at all.
// - The excerpts of the views' and scenes' pages did not list their conformances, so a view's
//   conformance to `View` (and `WindowGroup`'s to `Scene`) rests on the pages' prose and examples.
//
// A view's `body` stub (`Body == Never`), and `Never`'s and `Optional`'s conformances to `View`
// and `Scene`, have no page: the docs searches "Text EmptyView AnyView TupleView body Never
// typealias Body View Implementations SwiftUI", "SwiftUI body property of TextField SecureField
// Toggle VStack HStack NavigationStack WindowGroup _ConditionalContent", "SwiftUI Button body
// instance property", "SwiftUI Never conforms to View body", "documentation/SwiftUI/Swift/Never"
// and "SwiftUI Optional View conformance Wrapped: View", and the pages search "developer.apple.com
// documentation SwiftUI Optional conforms to View when Wrapped conforms to View; Never View Scene",
// found none.
//
// Nothing here runs (the bodies trap). It is never part of the root package: a module named
// SwiftUI must not reach a user's build.

import Foundation

// MARK: Views

// https://developer.apple.com/documentation/swiftui/view
@MainActor @preconcurrency
public protocol View {
    // https://developer.apple.com/documentation/swiftui/view/body-swift.associatedtype
    associatedtype Body: View
    // https://developer.apple.com/documentation/swiftui/view/body-8kl5o
    // Apple: @ContentBuilder; spelled @ViewBuilder here (see the file header).
    @ViewBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

// Not found in Apple's documentation: Never's conformance to View (searches in the file header).
extension Never: View {
    // Not found in Apple's documentation: Never's Body (searches in the file header).
    public typealias Body = Never
    // Not found in Apple's documentation: Never's body (searches in the file header).
    public var body: Never { fatalError("stand-in") }
}

// Not found in Apple's documentation: Optional's conformance to View (searches in the file header).
extension Optional: View where Wrapped: View {
    // Not found in Apple's documentation: Optional's Body (searches in the file header).
    public typealias Body = Never
    // Not found in Apple's documentation: Optional's body (searches in the file header).
    public var body: Never { fatalError("stand-in") }
}

// https://developer.apple.com/documentation/swiftui/viewbuilder
@resultBuilder
public struct ViewBuilder {
    // https://developer.apple.com/documentation/swiftui/viewbuilder/buildblock()
    // Apple spells the return type EmptyContent, a type alias for EmptyView (documentation/swiftui/emptycontent).
    public static func buildBlock() -> EmptyView { fatalError("stand-in") }
    // https://developer.apple.com/documentation/swiftui/viewbuilder/buildblock(_:)
    // Apple: buildBlock<Content>(_ content: Content) -> Content, unconstrained; here Content: View.
    public static func buildBlock<Content: View>(_ content: Content) -> Content { fatalError("stand-in") }
    // https://developer.apple.com/documentation/swiftui/viewbuilder/buildblock(_:)-2bj1g
    public static func buildBlock<each Content: View>(_ content: repeat each Content) -> TupleView<(repeat each Content)> {
        fatalError("stand-in")
    }
    // Not found in Apple's documentation: searched "ViewBuilder buildExpression(_:)" and
    // "/documentation/SwiftUI/ViewBuilder/buildExpression(_:) Builds an expression within the builder View".
    public static func buildExpression<Content: View>(_ content: Content) -> Content { fatalError("stand-in") }
    // https://developer.apple.com/documentation/swiftui/viewbuilder/buildif(_:)
    // Apple: buildIf<Content>(_ content: Content?) -> Content?, unconstrained; here Content: View.
    public static func buildIf<Content: View>(_ content: Content?) -> Content? { fatalError("stand-in") }
    // https://developer.apple.com/documentation/swiftui/viewbuilder/buildeither(first:)
    // Apple: TrueContent and FalseContent unconstrained; here both : View.
    public static func buildEither<TrueContent: View, FalseContent: View>(
        first: TrueContent
    ) -> _ConditionalContent<TrueContent, FalseContent> { fatalError("stand-in") }
    // https://developer.apple.com/documentation/swiftui/viewbuilder/buildeither(second:)
    // Apple: TrueContent and FalseContent unconstrained; here both : View.
    public static func buildEither<TrueContent: View, FalseContent: View>(
        second: FalseContent
    ) -> _ConditionalContent<TrueContent, FalseContent> { fatalError("stand-in") }
    // https://developer.apple.com/documentation/swiftui/viewbuilder/buildlimitedavailability(_:)
    // Unverified: the page (an overload group) shows only `(_ content: any Commands) -> some Commands`.
    public static func buildLimitedAvailability<Content: View>(_ content: Content) -> AnyView { fatalError("stand-in") }
}

// https://developer.apple.com/documentation/swiftui/tupleview
// Apple: nonisolated struct TupleView<T>; here @MainActor (see the file header).
public struct TupleView<T>: View {
    // https://developer.apple.com/documentation/swiftui/tupleview/value
    public var value: T
    // https://developer.apple.com/documentation/swiftui/tupleview/init(_:)
    // Apple: nonisolated init(_ value: T); here @MainActor (see the file header).
    public init(_ value: T) { self.value = value }
    // Not found in Apple's documentation: TupleView's body (searches in the file header).
    public var body: Never { fatalError("stand-in") }
}

// Not found in Apple's documentation: searched "SwiftUI _ConditionalContent structure View conformance" and
// "/documentation/SwiftUI/_ConditionalContent frozen struct _ConditionalContent<TrueContent, FalseContent>".
public struct _ConditionalContent<TrueContent: View, FalseContent: View>: View {
    // Not found in Apple's documentation: _ConditionalContent's body (searches in the file header).
    public var body: Never { fatalError("stand-in") }
}

// https://developer.apple.com/documentation/swiftui/emptyview
// Apple: nonisolated struct EmptyView; here @MainActor (see the file header).
public struct EmptyView: View {
    // Not found in Apple's documentation: searched "EmptyView init() Creates an empty view" and
    // "/documentation/SwiftUI/EmptyView/init() nonisolated init()".
    public init() {}
    // Not found in Apple's documentation: EmptyView's body (searches in the file header).
    public var body: Never { fatalError("stand-in") }
}

// https://developer.apple.com/documentation/swiftui/anyview
// Apple: nonisolated struct AnyView; here @MainActor (see the file header).
public struct AnyView: View {
    // https://developer.apple.com/documentation/swiftui/anyview/init(_:)
    // Apple: nonisolated; here @MainActor (see the file header).
    public init<V: View>(_ view: V) {}
    // https://developer.apple.com/documentation/swiftui/anyview/init(erasing:)
    // Apple: nonisolated; here @MainActor (see the file header).
    public init<V: View>(erasing view: V) {}
    // Not found in Apple's documentation: AnyView's body (searches in the file header).
    public var body: Never { fatalError("stand-in") }
}

/// What a view modifier returns in this stand-in (SwiftUI returns `some View`).
// Not found in Apple's documentation: not searched; the stand-in's own type, not SwiftUI's.
public struct _ModifiedView<Content: View>: View {
    // Not found in Apple's documentation: not searched; the stand-in's own body stub.
    public var body: Never { fatalError("stand-in") }
}

// MARK: Text and controls

// https://developer.apple.com/documentation/swiftui/localizedstringkey
// Unverified: Equatable, Sendable, ExpressibleByStringInterpolation (the excerpt names ExpressibleByStringLiteral).
public struct LocalizedStringKey: Equatable, Sendable, ExpressibleByStringInterpolation {
    // https://developer.apple.com/documentation/swiftui/localizedstringkey/init(_:)
    public init(_ value: String) {}
    // https://developer.apple.com/documentation/swiftui/localizedstringkey/init(stringliteral:)
    public init(stringLiteral value: String) {}
    // https://developer.apple.com/documentation/swiftui/localizedstringkey/init(stringinterpolation:)
    public init(stringInterpolation: StringInterpolation) {}

    // https://developer.apple.com/documentation/swiftui/localizedstringkey/stringinterpolation
    // Unverified: the page's excerpt shows no conformance to StringInterpolationProtocol.
    public struct StringInterpolation: StringInterpolationProtocol {
        // Not found in Apple's documentation: searched
        // "LocalizedStringKey.StringInterpolation init(literalCapacity:interpolationCount:) appendLiteral(_:)".
        public init(literalCapacity: Int, interpolationCount: Int) {}
        // https://developer.apple.com/documentation/swiftui/localizedstringkey/stringinterpolation/appendliteral(_:)
        public mutating func appendLiteral(_ literal: String) {}
        // Not found in Apple's documentation: searched "LocalizedStringKey StringInterpolation appendInterpolation
        // string String Appends a string to a string interpolation".
        public mutating func appendInterpolation(_ string: String) {}
        // Not found in Apple's documentation: searched as above; Apple's nearest is appendInterpolation<T>(_ value: T)
        // where T: _FormatSpecifiable (.../stringinterpolation/appendinterpolation(_:)-378v9). Unused by the checked code.
        public mutating func appendInterpolation<Subject: CustomStringConvertible>(_ subject: Subject) {}
        // https://developer.apple.com/documentation/swiftui/localizedstringkey/stringinterpolation/appendinterpolation(_:)-4qyfo
        public mutating func appendInterpolation(_ text: Text) {}
    }
}

// https://developer.apple.com/documentation/swiftui/text
// Unverified: Equatable and Sendable (the page's excerpt lists no conformances).
public struct Text: View, Equatable, Sendable {
    // https://developer.apple.com/documentation/swiftui/text/init(_:tablename:bundle:comment:)
    public init(_ key: LocalizedStringKey, tableName: String? = nil, bundle: Bundle? = nil, comment: StaticString? = nil) {}
    // https://developer.apple.com/documentation/swiftui/text/init(_:)-9d1g4
    // @_disfavoredOverload is not on the page; it makes a string literal pick the key initializer, as the page says.
    @_disfavoredOverload
    public init<S: StringProtocol>(_ content: S) {}
    // https://developer.apple.com/documentation/swiftui/text/init(verbatim:)
    public init(verbatim content: String) {}
    // Not found in Apple's documentation: Text's body (searches in the file header).
    public var body: Never { fatalError("stand-in") }
}

// https://developer.apple.com/documentation/swiftui/button
// Apple: nonisolated struct Button<Label> where Label : View; here @MainActor (see the file header).
public struct Button<Label: View>: View {
    // https://developer.apple.com/documentation/swiftui/button/init(action:label:)
    // Apple: @preconcurrency nonisolated, @ContentBuilder label; here @MainActor, @ViewBuilder (see the file header).
    public init(action: @escaping @MainActor () -> Void, @ViewBuilder label: () -> Label) {}
    // Not found in Apple's documentation: Button's body (searches in the file header).
    public var body: Never { fatalError("stand-in") }
}

extension Button where Label == Text {
    // https://developer.apple.com/documentation/swiftui/button/init(_:action:)-1asy
    // Apple: @preconcurrency nonisolated; here @MainActor, no @preconcurrency (see the file header).
    public init(_ titleKey: LocalizedStringKey, action: @escaping @MainActor () -> Void) {}
    // https://developer.apple.com/documentation/swiftui/button/init(_:action:)-lpm7
    // Apple: @preconcurrency nonisolated, no @_disfavoredOverload on the page; here @MainActor and @_disfavoredOverload.
    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, action: @escaping @MainActor () -> Void) {}
}

// https://developer.apple.com/documentation/swiftui/textfield
// Apple: nonisolated struct TextField<Label> where Label : View; here @MainActor (see the file header).
public struct TextField<Label: View>: View {
    // Not found in Apple's documentation: TextField's body (searches in the file header).
    public var body: Never { fatalError("stand-in") }
}

extension TextField where Label == Text {
    // https://developer.apple.com/documentation/swiftui/textfield/init(_:text:)
    // Apple: nonisolated; here @MainActor (see the file header).
    public init(_ titleKey: LocalizedStringKey, text: Binding<String>) {}
    // https://developer.apple.com/documentation/swiftui/textfield/init(_:text:)-2laoi
    // Apple: nonisolated, no @_disfavoredOverload on the page; here @MainActor and @_disfavoredOverload.
    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, text: Binding<String>) {}
}

// https://developer.apple.com/documentation/swiftui/securefield
// Apple: nonisolated struct SecureField<Label> where Label : View; here @MainActor (see the file header).
public struct SecureField<Label: View>: View {
    // Not found in Apple's documentation: SecureField's body (searches in the file header).
    public var body: Never { fatalError("stand-in") }
}

extension SecureField where Label == Text {
    // https://developer.apple.com/documentation/swiftui/securefield/init(_:text:)
    // Apple: nonisolated; here @MainActor (see the file header).
    public init(_ titleKey: LocalizedStringKey, text: Binding<String>) {}
    // Not found in Apple's documentation: searched
    // "SwiftUI SecureField struct init<S>(_ title: S, text: Binding<String>) where S : StringProtocol".
    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, text: Binding<String>) {}
}

// https://developer.apple.com/documentation/swiftui/toggle
// Apple: nonisolated struct Toggle<Label> where Label : View; here @MainActor (see the file header).
public struct Toggle<Label: View>: View {
    // Not found in Apple's documentation: Toggle's body (searches in the file header).
    public var body: Never { fatalError("stand-in") }
}

extension Toggle where Label == Text {
    // https://developer.apple.com/documentation/swiftui/toggle/init(_:ison:)
    // Unverified: the page (an overload group) shows only init(_ titleResource: LocalizedStringResource, isOn:).
    public init(_ titleKey: LocalizedStringKey, isOn: Binding<Bool>) {}
}

// MARK: Layout

// https://developer.apple.com/documentation/swiftui/horizontalalignment
// Unverified: Equatable and Sendable (the page's excerpt lists no conformances).
public struct HorizontalAlignment: Equatable, Sendable {
    // https://developer.apple.com/documentation/swiftui/horizontalalignment/leading
    public static let leading = HorizontalAlignment()
    // https://developer.apple.com/documentation/swiftui/horizontalalignment/center
    // Unverified: Apple's Alignment pages link this page, but no search reached its declaration.
    public static let center = HorizontalAlignment()
    // https://developer.apple.com/documentation/swiftui/horizontalalignment/trailing
    public static let trailing = HorizontalAlignment()
}

// https://developer.apple.com/documentation/swiftui/verticalalignment
// Unverified: Equatable and Sendable (the page's excerpt lists no conformances).
public struct VerticalAlignment: Equatable, Sendable {
    // https://developer.apple.com/documentation/swiftui/verticalalignment/top
    // Unverified: Apple's Alignment pages link this page, but no search reached its declaration.
    public static let top = VerticalAlignment()
    // https://developer.apple.com/documentation/swiftui/verticalalignment/center
    public static let center = VerticalAlignment()
    // https://developer.apple.com/documentation/swiftui/verticalalignment/bottom
    // Unverified: Apple's Alignment pages link this page, but no search reached its declaration.
    public static let bottom = VerticalAlignment()
}

// https://developer.apple.com/documentation/swiftui/vstack
// Apple: nonisolated struct VStack<Content> where Content : View; here @MainActor (see the file header).
public struct VStack<Content: View>: View {
    // https://developer.apple.com/documentation/swiftui/vstack/init(alignment:spacing:content:)
    // Apple: nonisolated, @ContentBuilder content; here @MainActor, @ViewBuilder (see the file header).
    public init(alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {}
    // Not found in Apple's documentation: VStack's body (searches in the file header).
    public var body: Never { fatalError("stand-in") }
}

// https://developer.apple.com/documentation/swiftui/hstack
// Apple: nonisolated struct HStack<Content> where Content : View; here @MainActor (see the file header).
public struct HStack<Content: View>: View {
    // Not found in Apple's documentation: searched "SwiftUI VStack init(alignment:spacing:content:) HStack
    // init(alignment:spacing:content:)" and "HStack init(alignment:spacing:content:) Creates a horizontal stack ...".
    public init(alignment: VerticalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {}
    // Not found in Apple's documentation: HStack's body (searches in the file header).
    public var body: Never { fatalError("stand-in") }
}

// MARK: State, bindings and the environment

// https://developer.apple.com/documentation/swiftui/dynamicproperty
public protocol DynamicProperty {
    // https://developer.apple.com/documentation/swiftui/dynamicproperty/update()
    mutating func update()
}

extension DynamicProperty {
    // Not found in Apple's documentation: a default update() (searched "SwiftUI DynamicProperty protocol update()
    // mutating func update"; only the requirement's page).
    public mutating func update() {}
}

// https://developer.apple.com/documentation/swiftui/binding
// Apple: a DynamicProperty (.../dynamicproperty), not here; Sendable when Value is (.../init(get:set:)-7ufcp), below.
@propertyWrapper @dynamicMemberLookup
public struct Binding<Value> {
    // https://developer.apple.com/documentation/swiftui/binding/init(get:set:)-7ufcp
    @preconcurrency
    public init(get: @escaping @isolated(any) @Sendable () -> Value, set: @escaping @isolated(any) @Sendable (Value) -> Void) {
        fatalError("stand-in")
    }
    // https://developer.apple.com/documentation/swiftui/binding/wrappedvalue
    public var wrappedValue: Value {
        get { fatalError("stand-in") }
        nonmutating set {}
    }
    // https://developer.apple.com/documentation/swiftui/binding/projectedvalue
    public var projectedValue: Binding<Value> { self }
    // https://developer.apple.com/documentation/swiftui/binding/subscript(dynamicmember:)
    public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Binding<Subject> {
        fatalError("stand-in")
    }
}

// https://developer.apple.com/documentation/swiftui/binding/init(get:set:)-7ufcp
// Apple's init(get:set:) page shows the conformance as `extension Binding: Sendable where Value: Sendable`.
extension Binding: @unchecked Sendable where Value: Sendable {}

// https://developer.apple.com/documentation/swiftui/state
// Unverified: DynamicProperty conformance (not in the page's excerpt). Apple: Xcode 27 uses the State() macro instead.
@propertyWrapper
public struct State<Value>: DynamicProperty {
    // https://developer.apple.com/documentation/swiftui/state/init(wrappedvalue:)
    public init(wrappedValue value: Value) {}
    // https://developer.apple.com/documentation/swiftui/state/init(initialvalue:)
    public init(initialValue value: Value) {}
    // https://developer.apple.com/documentation/swiftui/state/wrappedvalue
    public var wrappedValue: Value {
        get { fatalError("stand-in") }
        nonmutating set {}
    }
    // https://developer.apple.com/documentation/swiftui/state/projectedvalue
    public var projectedValue: Binding<Value> { fatalError("stand-in") }
}

// https://developer.apple.com/documentation/swiftui/environmentkey
public protocol EnvironmentKey {
    // https://developer.apple.com/documentation/swiftui/environmentkey/value
    associatedtype Value
    // https://developer.apple.com/documentation/swiftui/environmentkey/defaultvalue
    static var defaultValue: Self.Value { get }
}

// https://developer.apple.com/documentation/swiftui/environmentvalues
public struct EnvironmentValues {
    // https://developer.apple.com/documentation/swiftui/environmentvalues/init()
    public init() {}
    // https://developer.apple.com/documentation/swiftui/environmentvalues/subscript(_:)
    public subscript<K: EnvironmentKey>(key: K.Type) -> K.Value {
        get { fatalError("stand-in") }
        set {}
    }
}

// https://developer.apple.com/documentation/swiftui/environment
// Unverified: DynamicProperty conformance (not in the page's excerpt).
@propertyWrapper
public struct Environment<Value>: DynamicProperty {
    // https://developer.apple.com/documentation/swiftui/environment/init(_:)
    public init(_ keyPath: KeyPath<EnvironmentValues, Value>) {}
    // https://developer.apple.com/documentation/swiftui/environment/wrappedvalue
    public var wrappedValue: Value { fatalError("stand-in") }
}

// MARK: Navigation and presentation

// https://developer.apple.com/documentation/swiftui/navigationpath
public struct NavigationPath {
    // https://developer.apple.com/documentation/swiftui/navigationpath/init()
    public init() {}
}

// https://developer.apple.com/documentation/swiftui/navigationstack
// Apple: nonisolated struct NavigationStack<Data, Root> where Root : View; here @MainActor (see the file header).
public struct NavigationStack<Data, Root: View>: View {
    // https://developer.apple.com/documentation/swiftui/navigationstack/init(root:)
    // Apple: nonisolated, @ContentBuilder root; here @MainActor, @ViewBuilder (see the file header).
    public init(@ViewBuilder root: () -> Root) where Data == NavigationPath {}
    // https://developer.apple.com/documentation/swiftui/navigationstack/init(path:root:)-3bt4q
    // Apple: nonisolated, @ContentBuilder root; here @MainActor, @ViewBuilder (see the file header).
    public init(path: Binding<Data>, @ViewBuilder root: () -> Root)
    where Data: MutableCollection, Data: RandomAccessCollection, Data: RangeReplaceableCollection, Data.Element: Hashable {}
    // Not found in Apple's documentation: NavigationStack's body (searches in the file header).
    public var body: Never { fatalError("stand-in") }
}

extension View {
    // https://developer.apple.com/documentation/swiftui/view/navigationdestination(for:destination:)
    // Apple: nonisolated, @ContentBuilder destination; here @MainActor, @ViewBuilder (see the file header).
    public func navigationDestination<D: Hashable, C: View>(
        for data: D.Type,
        @ViewBuilder destination: @escaping (D) -> C
    ) -> some View { _ModifiedView<Self>() }

    // https://developer.apple.com/documentation/swiftui/view/sheet(ispresented:ondismiss:content:)
    // Apple: nonisolated, @ContentBuilder content; here @MainActor, @ViewBuilder (see the file header).
    public func sheet<Content: View>(
        isPresented: Binding<Bool>,
        onDismiss: (() -> Void)? = nil,
        @ViewBuilder content: @escaping () -> Content
    ) -> some View { _ModifiedView<Self>() }

    // https://developer.apple.com/documentation/swiftui/view/onappear(perform:)
    // Apple: nonisolated; here @MainActor (see the file header).
    public func onAppear(perform action: (() -> Void)? = nil) -> some View { _ModifiedView<Self>() }

    // https://developer.apple.com/documentation/swiftui/view/ondisappear(perform:)
    // Apple: nonisolated; here @MainActor (see the file header).
    public func onDisappear(perform action: (() -> Void)? = nil) -> some View { _ModifiedView<Self>() }

    // https://developer.apple.com/documentation/swiftui/view/environment(_:_:)
    // Apple: nonisolated; here @MainActor (see the file header).
    public func environment<V>(_ keyPath: WritableKeyPath<EnvironmentValues, V>, _ value: V) -> some View {
        _ModifiedView<Self>()
    }

    // https://developer.apple.com/documentation/swiftui/view/transaction(value:_:)
    // Apple: nonisolated; here @MainActor (see the file header).
    public func transaction(value: some Equatable, _ transform: @escaping (inout Transaction) -> Void) -> some View {
        _ModifiedView<Self>()
    }

    // https://developer.apple.com/documentation/swiftui/view/padding(_:)-68shk
    // Apple: nonisolated; here @MainActor (see the file header). Apple's `.padding()` is padding(_:_:), not declared here.
    public func padding(_ length: CGFloat) -> some View { _ModifiedView<Self>() }
}

// MARK: Scrolling and paging

// https://developer.apple.com/documentation/swiftui/axis
public enum Axis: Sendable {
    // https://developer.apple.com/documentation/swiftui/axis/horizontal
    case horizontal
    // https://developer.apple.com/documentation/swiftui/axis/vertical
    case vertical

    // https://developer.apple.com/documentation/swiftui/axis/set
    public struct Set: OptionSet, Sendable {
        // Not found in Apple's documentation as a page: Axis.Set's rawValue (Int8) and init(rawValue:), from
        // the page's RawRepresentable and OptionSet conformances and their declarations in a reference listing.
        public let rawValue: Int8
        public init(rawValue: Int8) { self.rawValue = rawValue }
        // https://developer.apple.com/documentation/swiftui/axis/set/horizontal
        public static let horizontal = Set(rawValue: 1)
        // https://developer.apple.com/documentation/swiftui/axis/set/vertical
        public static let vertical = Set(rawValue: 2)
    }
}

// https://developer.apple.com/documentation/swiftui/alignment/center (the type's own page not searched)
public struct Alignment: Equatable, Sendable {
    // https://developer.apple.com/documentation/swiftui/alignment/center
    public static let center = Alignment()
}

// https://developer.apple.com/documentation/swiftui/unitpoint
// Only the type; its members are not used here.
public struct UnitPoint: Hashable, Sendable {}

// https://developer.apple.com/documentation/swiftui/scrollview
// Apple: nonisolated struct ScrollView<Content> where Content : View; here @MainActor (see the file header).
public struct ScrollView<Content: View>: View {
    // https://developer.apple.com/documentation/swiftui/scrollview/init(_:showsindicators:content:)
    // Apple: nonisolated, @ContentBuilder; marked deprecated after iOS 27 (successor: init(_:content:) with
    // scrollIndicators(_:axes:)); here @MainActor, @ViewBuilder (see the file header).
    public init(_ axes: Axis.Set = .vertical, showsIndicators: Bool = true, @ViewBuilder content: () -> Content) {}
    // Not found in Apple's documentation: ScrollView's body (searches in the file header).
    public var body: Never { fatalError("stand-in") }
}

// https://developer.apple.com/documentation/swiftui/lazyhstack
// Apple: nonisolated struct LazyHStack<Content> where Content : View; here @MainActor (see the file header).
public struct LazyHStack<Content: View>: View {
    // https://developer.apple.com/documentation/swiftui/lazyhstack/init(alignment:spacing:pinnedviews:content:)
    // Declared after LazyVStack's page (.../lazyvstack/init(alignment:spacing:pinnedviews:content:)), with
    // VerticalAlignment as the LazyHStack page's example uses; `pinnedViews:` (defaulted) is left out here.
    public init(alignment: VerticalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {}
    // Not found in Apple's documentation: LazyHStack's body (searches in the file header).
    public var body: Never { fatalError("stand-in") }
}

// https://developer.apple.com/documentation/swiftui/lazyvstack
// Apple: nonisolated struct LazyVStack<Content> where Content : View; here @MainActor (see the file header).
public struct LazyVStack<Content: View>: View {
    // https://developer.apple.com/documentation/swiftui/lazyvstack/init(alignment:spacing:pinnedviews:content:)
    // Apple: nonisolated, @ContentBuilder; `pinnedViews:` (defaulted) is left out here.
    public init(alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {}
    // Not found in Apple's documentation: LazyVStack's body (searches in the file header).
    public var body: Never { fatalError("stand-in") }
}

// https://developer.apple.com/documentation/swiftui/foreach
// Apple: struct ForEach<Data, ID, Content> where Data : RandomAccessCollection, ID : Hashable, a View when
// Content is; here Content: View on the type.
public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content: View>: View {
    // Not found in Apple's documentation as a page: init(_:id:content:), named by ForEach's overview and by
    // .../foreach/init(_:content:)-ktgx ("use ForEach/init(_:id:content:)"); declared as List's
    // .../list/init(_:id:rowcontent:)-4s0aj declares the same parameters.
    public init(_ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: @escaping (Data.Element) -> Content) {}
    // Not found in Apple's documentation: ForEach's body (searches in the file header).
    public var body: Never { fatalError("stand-in") }
}

// https://developer.apple.com/documentation/swiftui/scrolltargetbehavior
// Its requirement, updateTarget(_:context:), is left out: nothing here implements a behavior.
public protocol ScrollTargetBehavior {}

// https://developer.apple.com/documentation/swiftui/pagingscrolltargetbehavior
public struct PagingScrollTargetBehavior: ScrollTargetBehavior {
    // https://developer.apple.com/documentation/swiftui/pagingscrolltargetbehavior (Topics: init())
    public init() {}
}

extension ScrollTargetBehavior where Self == PagingScrollTargetBehavior {
    // https://developer.apple.com/documentation/swiftui/scrolltargetbehavior/paging
    public static var paging: PagingScrollTargetBehavior { PagingScrollTargetBehavior() }
}

// https://developer.apple.com/documentation/swiftui/scrollgeometry
// Apple: Equatable, Sendable, CustomDebugStringConvertible; the last is left out.
public struct ScrollGeometry: Equatable, Sendable {
    // https://developer.apple.com/documentation/swiftui/scrollgeometry/init(contentoffset:contentsize:contentinsets:containersize:)
    // lists contentSize as a stored value; its own page was not reached (a reference listing: var contentSize: CGSize).
    public var contentSize: CGSize
    // https://developer.apple.com/documentation/swiftui/scrollgeometry/visiblerect
    public var visibleRect: CGRect { fatalError("stand-in") }
}

extension View {
    // https://developer.apple.com/documentation/swiftui/view/containerrelativeframe(_:alignment:)
    // Apple: nonisolated; here @MainActor (see the file header).
    public func containerRelativeFrame(_ axes: Axis.Set, alignment: Alignment = .center) -> some View {
        _ModifiedView<Self>()
    }

    // https://developer.apple.com/documentation/swiftui/view/scrolltargetlayout(isenabled:)
    // Apple: nonisolated; here @MainActor (see the file header).
    public func scrollTargetLayout(isEnabled: Bool = true) -> some View { _ModifiedView<Self>() }

    // https://developer.apple.com/documentation/swiftui/view/scrolltargetbehavior(_:)
    // Apple: nonisolated; here @MainActor (see the file header).
    public func scrollTargetBehavior(_ behavior: some ScrollTargetBehavior) -> some View { _ModifiedView<Self>() }

    // https://developer.apple.com/documentation/swiftui/view/scrollposition(id:anchor:)
    // Apple: nonisolated; here @MainActor (see the file header).
    public func scrollPosition(id: Binding<(some Hashable)?>, anchor: UnitPoint? = nil) -> some View {
        _ModifiedView<Self>()
    }

    // https://developer.apple.com/documentation/swiftui/view/onscrollgeometrychange(for:of:action:)
    // Apple: nonisolated; here @MainActor (see the file header).
    public func onScrollGeometryChange<T: Equatable>(
        for type: T.Type,
        of transform: @escaping (ScrollGeometry) -> T,
        action: @escaping (T, T) -> Void
    ) -> some View { _ModifiedView<Self>() }
}

// MARK: Transactions

// https://developer.apple.com/documentation/swiftui/transaction
public struct Transaction {
    // https://developer.apple.com/documentation/swiftui/transaction/init()
    public init() {}
    // https://developer.apple.com/documentation/swiftui/transaction/disablesanimations
    public var disablesAnimations: Bool {
        get { fatalError("stand-in") }
        set {}
    }
}

// MARK: Apps and scenes

// https://developer.apple.com/documentation/swiftui/scene
@MainActor @preconcurrency
public protocol Scene {
    // https://developer.apple.com/documentation/swiftui/scene/body-swift.associatedtype
    // Unverified: Scene's body page links this page, but no search reached its declaration.
    associatedtype Body: Scene
    // https://developer.apple.com/documentation/swiftui/scene/body-swift.property
    @SceneBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

// Not found in Apple's documentation: Never's conformance to Scene (searches in the file header).
extension Never: Scene {}

// https://developer.apple.com/documentation/swiftui/scenebuilder
@resultBuilder
public struct SceneBuilder {
    // https://developer.apple.com/documentation/swiftui/scenebuilder/buildblock(_:)
    // Apple (an overload group): buildBlock<each Content>(_: repeat each Content) -> some Scene; this one is not shown.
    public static func buildBlock<Content: Scene>(_ content: Content) -> Content { fatalError("stand-in") }
    // https://developer.apple.com/documentation/swiftui/scenebuilder/buildexpression(_:)
    // Unverified: SceneBuilder's page lists this page, but no search reached its declaration.
    public static func buildExpression<Content: Scene>(_ content: Content) -> Content { fatalError("stand-in") }
}

// https://developer.apple.com/documentation/swiftui/windowgroup
// Apple: nonisolated struct WindowGroup<Content> where Content : View; here @MainActor via Scene (see the file header).
public struct WindowGroup<Content: View>: Scene {
    // https://developer.apple.com/documentation/swiftui/windowgroup/init(content:)
    // Apple: nonisolated, @ContentBuilder, iOS 14.0 to 18.0 only (successor: init(makeContent:), @escaping closure).
    public init(@ViewBuilder content: () -> Content) {}
    // Not found in Apple's documentation: WindowGroup's body (searches in the file header).
    public var body: Never { fatalError("stand-in") }
}

// https://developer.apple.com/documentation/swiftui/app
@MainActor @preconcurrency
public protocol App {
    // https://developer.apple.com/documentation/swiftui/app/body-swift.associatedtype
    associatedtype Body: Scene
    // https://developer.apple.com/documentation/swiftui/app/body-swift.property
    @SceneBuilder @MainActor @preconcurrency var body: Self.Body { get }
    // https://developer.apple.com/documentation/swiftui/app/init()
    @MainActor @preconcurrency init()
}

extension App {
    // https://developer.apple.com/documentation/swiftui/app/main()
    @MainActor @preconcurrency
    public static func main() { fatalError("stand-in") }
}
