/// The values of the entries a state referred to (`@Ref`, `@RefCollection`) at one commit, by
/// entry: what the state's references read at that moment.
///
/// A reference reads its entry's *current* value, which other writers may have changed by the
/// time a commit's notice is delivered. A store that is asked to (ComposeTesting's
/// `StoreTester`, see ``StoreStorage/capturesReferencedValues``) captures them under its lock at
/// each commit, and, for a write to an entry, takes that write's own value: so each commit's
/// states can be read as they were.
@usableFromInline
package struct ReferencedValues: @unchecked Sendable {  // The values are `Sendable` entity values.
    @usableFromInline var values: [ObjectIdentifier: any Sendable] = [:]

    @inlinable
    package init() {}

    /// The value `entry` had at the commit, if it was captured.
    @inlinable
    package subscript(entry: AnyObject) -> (any Sendable)? {
        get { values[ObjectIdentifier(entry)] }
        set { values[ObjectIdentifier(entry)] = newValue }
    }

    /// Whether nothing was captured.
    @inlinable
    package var isEmpty: Bool { values.isEmpty }
}
