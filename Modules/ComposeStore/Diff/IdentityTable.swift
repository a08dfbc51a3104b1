/// A hash table from the ids of an array's elements to indexes in that array, for the diff's
/// symbol table.
///
/// The diff spends most of its time looking ids up, and for large arrays most of that waiting
/// for memory, so the table is as small as it can be: a byte of control per slot (empty, or
/// occupied with seven bits of the id's hash) and a 32-bit index per slot. It does not store
/// ids: an id is compared with the element at the slot's index, only when the tag matches.
/// `Dictionary<ID, Int>` would keep occupancy bits, ids and values in three arrays, touching
/// three cache lines per lookup and four times the memory for integer ids.
///
/// Open addressing with linear probing, at most half full; entries are never removed. The
/// value in a slot is an index of an element with that id, or, once the diff has used every
/// occurrence of the id, `-2 - index` (so the id can still be compared). Built for one diff,
/// then freed with ``deallocate()``.
@usableFromInline
struct IdentityTable {
    /// 0: empty; otherwise 0x80 | the hash's low seven bits.
    @usableFromInline let control: UnsafeMutablePointer<UInt8>
    @usableFromInline let slots: UnsafeMutablePointer<Int32>
    /// The capacity minus one; the capacity is a power of two.
    @usableFromInline let mask: Int

    /// A table for up to `count` ids.
    @inlinable
    init(capacity count: Int) {
        precondition(count < Int(Int32.max) / 2, "Changeset: arrays of 2^30 elements or more are not supported")
        var capacity = 16
        while capacity < count * 2 { capacity <<= 1 }
        mask = capacity - 1
        control = .allocate(capacity: capacity)
        control.initialize(repeating: 0, count: capacity)
        slots = .allocate(capacity: capacity)
    }

    /// Frees the table. Call it exactly once, when done.
    @inlinable
    func deallocate() {
        slots.deallocate()
        control.deallocate()
    }

    /// The index of the element whose id a slot's value stands for.
    @inlinable
    static func element(of value: Int32) -> Int {
        value >= 0 ? Int(value) : Int(-2 - value)
    }

    /// Runs `body` on the slot for `elements[index].id`, whose hash value is `hash`, inserting
    /// `index` first if the table has no slot for that id; `inserted` tells `body` which
    /// happened.
    @inlinable
    func withSlot<Element: Identifiable, Result>(
        forElementAt index: Int,
        of elements: [Element],
        hash: Int,
        _ body: (_ value: inout Int32, _ inserted: Bool) -> Result
    ) -> Result {
        let id = elements[index].id
        let tag = UInt8(truncatingIfNeeded: hash) | 0x80
        var slot = home(of: hash)
        while true {
            let byte = control[slot]
            if byte == 0 {
                control[slot] = tag
                slots[slot] = Int32(truncatingIfNeeded: index)
                return body(&slots[slot], true)
            }
            if byte == tag && elements[Self.element(of: slots[slot])].id == id {
                return body(&slots[slot], false)
            }
            slot = (slot + 1) & mask
        }
    }

    /// Runs `body` on the slot for `id`, or returns `nil` if the table has no slot for it.
    /// `elements` is the array the table was built from.
    @inlinable
    func withSlot<Element: Identifiable, Result>(
        for id: Element.ID,
        in elements: [Element],
        _ body: (_ value: inout Int32) -> Result
    ) -> Result? {
        let hash = id.hashValue
        let tag = UInt8(truncatingIfNeeded: hash) | 0x80
        var slot = home(of: hash)
        while true {
            let byte = control[slot]
            if byte == 0 { return nil }
            if byte == tag && elements[Self.element(of: slots[slot])].id == id {
                return body(&slots[slot])
            }
            slot = (slot + 1) & mask
        }
    }

    /// The slot where probing for `hash` starts: bits above the seven of the tag.
    @inlinable
    func home(of hash: Int) -> Int {
        (hash >> 7) & mask
    }
}
