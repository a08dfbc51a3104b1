@_spi(Reflection) import Swift
import ComposeEmitters
import ComposeMachinery
import ComposeRouting
import ComposeStore

/// What the host needs to know about a component type, found once per type from its
/// stored-property layout (the standard library's reflection SPI, which `Mirror` is built on).
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

    private init(describing type: Any.Type, isRouter: Bool) {
        var fields: [Field] = []
        var owned: [(offset: Int, type: any SubscriptionSource.Type)] = []
        var referenceWords: [Int] = []
        isStruct = _forEachField(of: type, options: []) { name, offset, fieldType, kind in
            let name = String(cString: name)
            if let component = fieldType as? any Component.Type {
                fields.append(Field(name: name, offset: offset, size: Self.size(component), type: fieldType, kind: .component))
            } else if let dynamic = fieldType as? any DynamicComponentProtocol.Type {
                fields.append(Field(name: name, offset: offset, size: Self.size(dynamic), type: fieldType, kind: .dynamic))
            } else if let instance = fieldType as? any InstanceComponentProtocol.Type {
                fields.append(Field(name: name, offset: offset, size: Self.size(instance), type: fieldType, kind: .instance))
            } else if fieldType == EnclosingRouter.self {
                fields.append(Field(name: name, offset: offset, size: MemoryLayout<EnclosingRouter>.size, type: fieldType, kind: .enclosingRouter))
            } else if let source = fieldType as? any SubscriptionSource.Type {
                owned.append((offset, source))
            }
            return true
        }
        Self.collectReferenceWords(in: type, at: 0, depth: 0, into: &referenceWords)
        self.fields = fields
        self.owned = owned
        self.referenceWords = referenceWords
        self.typeName = String(describing: type)
        self.isRouter = isRouter
        self.hasEnclosingRouter = fields.contains { $0.kind == .enclosingRouter }
    }

    private static func size<T>(_: T.Type) -> Int {
        MemoryLayout<T>.size
    }

    /// Appends the offsets of class references stored in the struct `type` at `base`.
    private static func collectReferenceWords(in type: Any.Type, at base: Int, depth: Int, into words: inout [Int]) {
        var nested: [(Any.Type, Int)] = []
        _ = _forEachField(of: type, options: []) { _, offset, _, kind in
            if kind == .class {
                words.append(base + offset)
            }
            return true
        }
        _ = _forEachField(of: type, options: []) { _, offset, fieldType, kind in
            if kind == .struct { nested.append((fieldType, base + offset)) }
            return true
        }
        guard depth < 4 else { return }
        for (fieldType, offset) in nested {
            collectReferenceWords(in: fieldType, at: offset, depth: depth + 1, into: &words)
        }
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
    static func sources(_ fields: [(offset: Int, type: any SubscriptionSource.Type)], of component: any Component) -> [ObjectIdentifier] {
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
