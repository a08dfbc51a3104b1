@_spi(Reflection) import Swift

/// The stored properties of a type, as the runtime describes them: the standard library's
/// reflection SPI (`_forEachField`, which `Mirror` is built on), read once per type and cached.
///
/// Compose uses it where a value's layout matters: the component host finds child components,
/// and a router tells apart stored properties that key paths cannot.
package struct FieldLayout: @unchecked Sendable {  // Immutable; metatypes.
    /// One stored property.
    package struct Field {
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
            fields.append(Field(
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

    /// How deep ``zeroSizePaths(in:at:of:)`` looks into nested structs.
    package static let maximumDepth = 8

    /// The stored-property paths of `root` (`about`, `pages.terms`) that hold a value of the
    /// zero-size type `target` at byte `offset`.
    ///
    /// Zero-size values share their offset with their neighbours, and Swift key paths to stored
    /// properties are offsets: two such paths of one type are equal key paths. More than one path
    /// here means a key path to `target` at `offset` cannot say which property it names.
    package static func zeroSizePaths(in root: Any.Type, at offset: Int, of target: Any.Type) -> [String] {
        var found: [String] = []
        collect(in: root, base: 0, prefix: "", offset: offset, target: ObjectIdentifier(target), depth: 0, into: &found)
        return found
    }

    private static func collect(
        in type: Any.Type,
        base: Int,
        prefix: String,
        offset: Int,
        target: ObjectIdentifier,
        depth: Int,
        into found: inout [String]
    ) {
        for field in of(type).fields {
            let start = base + field.offset
            let path = prefix.isEmpty ? field.name : prefix + "." + field.name
            if start == offset, field.size == 0, ObjectIdentifier(field.type) == target {
                found.append(path)
            } else if field.isStruct, depth < maximumDepth, start <= offset, offset <= start + field.size {
                collect(in: field.type, base: start, prefix: path, offset: offset, target: target, depth: depth + 1, into: &found)
            }
        }
    }
}

private func sizeOf(_ type: Any.Type) -> Int {
    func size<T>(_: T.Type) -> Int { MemoryLayout<T>.size }
    return _openExistential(type, do: size)
}
