/// The instructions some thread is at: a sparse set, cleared in O(1).
///
/// Every instruction visited is recorded, including those that consume nothing; only consuming
/// and matching instructions matter when the set is read, and they are checked by type.
/// Its storage is borrowed from the caller (on the stack), and clearing it is O(1): a sparse entry
/// is trusted only if the dense entry it points at points back.
struct ThreadSet {
    private let dense: UnsafeMutablePointer<Int>
    private let sparse: UnsafeMutablePointer<Int>
    private(set) var count = 0

    init(dense: UnsafeMutablePointer<Int>, sparse: UnsafeMutablePointer<Int>) {
        self.dense = dense
        self.sparse = sparse
    }

    subscript(position: Int) -> Int {
        dense[position]
    }

    /// Adds `pc`; returns whether it was new.
    mutating func insert(_ pc: Int) -> Bool {
        let slot = sparse[pc]
        if slot >= 0, slot < count, dense[slot] == pc { return false }
        sparse[pc] = count
        dense[count] = pc
        count += 1
        return true
    }

    mutating func removeAll() {
        count = 0
    }
}
