import ComposeEmitters
import ComposeMachinery
import ComposeRouting
import ComposeStore

/// What the host needs to know about a component type, found once per type from its
/// stored-property layout (`FieldLayout`, the one reader of the runtime's type metadata).
struct ComponentLayout: @unchecked Sendable {  // Immutable; metatypes.
    enum Kind {
        /// A child component.
        case component
        /// A `DynamicComponent`.
        case dynamic
        /// An `InstanceComponent`.
        case instance
        /// An `@EnclosingRouter`.
        case enclosingRouter
    }

    struct Field {
        let name: String
        let offset: Int
        let size: Int
        let type: Any.Type
        let kind: Kind

        /// Reads the field's child component (``Kind/component``), without boxing it in `Any`.
        func component(of parent: any Component) -> any Component {
            let componentType = type as! any Component.Type
            return ComponentStorage.withBytes(of: parent) { base in
                let address = base + offset
                return ComponentStorage.loadComponent(componentType, from: address)
            }
        }

        /// Reads the slot of a ``Kind/dynamic`` or ``Kind/instance`` field.
        func slot(of parent: any Component) -> any ComponentSlot {
            HostCore.slot(of: ComponentStorage.field(type, at: offset, of: parent))
        }
    }

    /// Child components, dynamic and instance components, and enclosing routers, in
    /// declaration order.
    let fields: [Field]
    /// The offsets of the words holding class references (at any depth of nested structs):
    /// two values of the type are the same component when these words are equal.
    let referenceWords: [Int]
    /// The offsets and types of stored properties that are emitters, stores or routers, for the
    /// ownership check.
    let owned: [(offset: Int, type: any SubscriptionSource.Type)]
    /// The same stored properties by name (a property wrapper's storage, `_state`, by its
    /// wrapped name, `state`), in declaration order: what a session recording names.
    let namedSources: [(name: String, offset: Int, type: Any.Type)]
    /// Whether the runtime could describe the type as a struct.
    let isStruct: Bool
    /// The type's name.
    let typeName: String
    /// Whether the type is a ``RouterComponent``.
    let isRouter: Bool
    /// Whether the type has an `@EnclosingRouter`.
    let hasEnclosingRouter: Bool

    private static let cache = LockedState<[ObjectIdentifier: ComponentLayout]>([:])

    /// The layout of `type`.
    static func of(_ type: any Component.Type) -> ComponentLayout {
        let key = ObjectIdentifier(type)
        if let known = cache.withLock({ $0[key] }) { return known }
        let layout = ComponentLayout(describing: type, isRouter: type is any RouterComponent.Type)
        cache.withLock { $0[key] = layout }
        return layout
    }

    /// Built from the type's stored properties as `FieldLayout` describes them.
    private init(describing type: Any.Type, isRouter: Bool) {
        var fields: [Field] = []
        var owned: [(offset: Int, type: any SubscriptionSource.Type)] = []
        var namedSources: [(name: String, offset: Int, type: Any.Type)] = []
        let layout = FieldLayout.of(type)
        for field in layout.fields {
            let fieldType = field.type
            if let component = fieldType as? any Component.Type {
                fields.append(Field(name: field.name, offset: field.offset, size: field.size, type: component, kind: .component))
            } else if fieldType is any DynamicComponentProtocol.Type {
                fields.append(Field(name: field.name, offset: field.offset, size: field.size, type: fieldType, kind: .dynamic))
            } else if fieldType is any InstanceComponentProtocol.Type {
                fields.append(Field(name: field.name, offset: field.offset, size: field.size, type: fieldType, kind: .instance))
            } else if fieldType == EnclosingRouter.self {
                fields.append(
                    Field(name: field.name, offset: field.offset, size: field.size, type: fieldType, kind: .enclosingRouter))
            } else if let source = fieldType as? any SubscriptionSource.Type {
                owned.append((field.offset, source))
                let name = field.name.hasPrefix("_") ? String(field.name.dropFirst()) : field.name
                namedSources.append((name, field.offset, fieldType))
            }
        }
        // The class references at any depth of nested structs (up to `FieldLayout.maximumDepth`).
        var referenceWords: [Int] = []
        FieldLayout.walk(type) { field, offset, _ in
            if field.isClass { referenceWords.append(offset) }
            return field.isStruct
        }
        self.isStruct = layout.isStruct
        self.fields = fields
        self.owned = owned
        self.namedSources = namedSources
        self.referenceWords = referenceWords
        self.typeName = String(describing: type)
        self.isRouter = isRouter
        self.hasEnclosingRouter = fields.contains { $0.kind == .enclosingRouter }
    }
}

/// Reading fields out of a component's storage.
enum ComponentStorage {
    /// The value of the field of type `type` at `offset` in `component`.
    static func field(_ type: Any.Type, at offset: Int, of component: any Component) -> Any {
        withBytes(of: component) { base in load(type, from: base + offset) }
    }

    /// The words at `offsets` in `component`'s storage.
    static func words(at offsets: [Int], of component: any Component) -> [UInt] {
        withBytes(of: component) { base in
            offsets.map { base.loadUnaligned(fromByteOffset: $0, as: UInt.self) }
        }
    }

    /// Runs `body` with the address of a copy of `component`'s storage.
    static func withBytes<Result>(of component: any Component, _ body: (UnsafeRawPointer) -> Result) -> Result {
        func open<C: Component>(_ value: C) -> Result {
            var copy = value
            return withUnsafeBytes(of: &copy) { body($0.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!) }
        }
        return open(component)
    }

    private static func load<T>(_: T.Type, from address: UnsafeRawPointer) -> Any {
        address.load(as: T.self)
    }

    static func loadComponent<C: Component>(_: C.Type, from address: UnsafeRawPointer) -> any Component {
        address.load(as: C.self)
    }

    /// The identities of the emitters, stores and routers stored at `fields` in `component`.
    static func sources(
        _ fields: [(offset: Int, type: any SubscriptionSource.Type)], of component: any Component
    ) -> [ObjectIdentifier] {
        guard !fields.isEmpty else { return [] }
        return withBytes(of: component) { base in
            var identities: [ObjectIdentifier] = []
            for field in fields {
                let sourceType: any SubscriptionSource.Type = field.type
                let address = base + field.offset
                identities += loadSource(sourceType, from: address)
            }
            return identities
        }
    }

    private static func loadSource<S: SubscriptionSource>(_: S.Type, from address: UnsafeRawPointer) -> [ObjectIdentifier] {
        address.load(as: S.self).subscriptionIdentities
    }
}
