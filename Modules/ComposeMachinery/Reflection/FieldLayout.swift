@_spi(Reflection) import Swift

/// The stored properties of a type, as the runtime describes them: the standard library's
/// reflection SPI (`_forEachField`, which `Mirror` is built on), read once per type and cached.
///
/// The one place Compose reads a type's layout:
/// - the component host finds a component's children, created components, routers and emitters
///   (`ComponentLayout`);
/// - a store finds the `@Ref` properties of its state, nested structs included
///   (`ReferenceScanner`);
/// - a router tells apart stored properties that key paths cannot (``zeroSizePaths(in:at:of:)``).
///
/// ## Limits
/// - Only structs are described; for any other type ``isStruct`` is `false` and ``fields`` is
///   empty (callers fall back to `Mirror` or treat the value as a leaf).
/// - Nested structs are walked at most ``maximumDepth`` levels deep: a property deeper than that
///   is not found (a `@Ref` nested nine structs deep is not listened to). Arrays, dictionaries,
///   optionals and enums are leaves: what they hold is not walked.
/// - The description is the runtime's: it works for every struct the compiler emits metadata
///   for, generic ones included, in debug and release builds.
package struct FieldLayout: @unchecked Sendable {  // Immutable; metatypes.
    /// One stored property.
    package struct Field: @unchecked Sendable {
        package let name: String
        /// The byte offset in the type's storage.
        package let offset: Int
        package let size: Int
        package let type: Any.Type
        /// Whether the field's type is a struct (its own fields can be walked).
        package let isStruct: Bool
        /// Whether the field holds a class reference.
        package let isClass: Bool
    }

    /// How many levels of nested structs ``walk(_:_:)`` looks into.
    package static let maximumDepth = 8

    /// The stored properties, in declaration order; empty if the type is not a struct.
    package let fields: [Field]
    /// Whether the runtime could describe the type as a struct.
    package let isStruct: Bool

    private static let cache = LockedState<[ObjectIdentifier: FieldLayout]>([:])

    /// The layout of `type`.
    package static func of(_ type: Any.Type) -> FieldLayout {
        let key = ObjectIdentifier(type)
        if let known = cache.withLock({ $0[key] }) { return known }
        let layout = FieldLayout(describing: type)
        cache.withLock { $0[key] = layout }
        return layout
    }

    /// Not generic: a closure passed to `_forEachField` in a generic function crashes SILGen
    /// (Swift 6.3.1).
    private init(describing type: Any.Type) {
        var fields: [Field] = []
        isStruct = _forEachField(of: type, options: []) { name, offset, fieldType, kind in
            fields.append(
                Field(
                    name: String(cString: name),
                    offset: offset,
                    size: sizeOf(fieldType),
                    type: fieldType,
                    isStruct: kind == .struct,
                    isClass: kind == .class
                ))
            return true
        }
        self.fields = fields
    }

    /// Calls `visit` with every stored property of `type` and, while `visit` returns `true` for a
    /// struct property, with that struct's properties, up to ``maximumDepth`` levels down.
    ///
    /// - Parameter visit: The field, its offset from the start of `type`'s storage, and its
    ///   depth (0 for `type`'s own properties). Returns whether to look inside it.
    package static func walk(_ type: Any.Type, _ visit: (Field, _ offset: Int, _ depth: Int) -> Bool) {
        walk(type, base: 0, depth: 0, visit)
    }

    private static func walk(_ type: Any.Type, base: Int, depth: Int, _ visit: (Field, Int, Int) -> Bool) {
        for field in of(type).fields {
            let offset = base + field.offset
            if visit(field, offset, depth), field.isStruct, depth < maximumDepth {
                walk(field.type, base: offset, depth: depth + 1, visit)
            }
        }
    }

    /// The stored-property paths of `root` (`about`, `pages.terms`) that hold a value of the
    /// zero-size type `target` at byte `offset`.
    ///
    /// Zero-size values share their offset with their neighbours, and Swift key paths to stored
    /// properties are offsets: two such paths of one type are equal key paths. More than one path
    /// here means a key path to `target` at `offset` cannot say which property it names.
    package static func zeroSizePaths(in root: Any.Type, at offset: Int, of target: Any.Type) -> [String] {
        var found: [String] = []
        var names: [String] = []
        let wanted = ObjectIdentifier(target)
        walk(root) { field, start, depth in
            names.removeSubrange(min(depth, names.count)...)
            names.append(field.name)
            if start == offset, field.size == 0, ObjectIdentifier(field.type) == wanted {
                found.append(names.joined(separator: "."))
                return false
            }
            return start <= offset && offset <= start + field.size
        }
        return found
    }
}

private func sizeOf(_ type: Any.Type) -> Int {
    func size<T>(_: T.Type) -> Int { MemoryLayout<T>.size }
    return _openExistential(type, do: size)
}
