import ComposeMachinery

/// Which 8-byte words of a state's storage a write changed.
///
/// Up to four runs of words are kept exactly; a fifth run widens the last one, which may make
/// the store look at more observers than needed but never at fewer. `everything` stands for
/// writes whose footprint is unknown (a key path through a computed property).
@usableFromInline
struct ChangedWords: Sendable {
    @usableFromInline var first: Range<Int> = 0..<0
    @usableFromInline var second: Range<Int> = 0..<0
    @usableFromInline var third: Range<Int> = 0..<0
    @usableFromInline var fourth: Range<Int> = 0..<0
    @usableFromInline var count = 0
    @usableFromInline var everything = false

    @inlinable
    init() {}

    @inlinable
    static var all: ChangedWords {
        var changes = ChangedWords()
        changes.everything = true
        return changes
    }

    /// The words spanned by `size` bytes at `offset`.
    @inlinable
    init(offset: Int, size: Int) {
        guard size > 0 else { return }
        first = (offset / 8)..<((offset + size + 7) / 8)
        count = 1
    }

    @inlinable
    var isEmpty: Bool {
        !everything && count == 0
    }

    @inlinable
    mutating func append(_ run: Range<Int>) {
        switch count {
        case 0: first = run
        case 1: second = run
        case 2: third = run
        case 3: fourth = run
        default:
            fourth = fourth.lowerBound..<run.upperBound
            return
        }
        count += 1
    }

    /// Calls `body` with each changed run.
    @inlinable
    func forEachRun(_ body: (Range<Int>) -> Void) {
        if count > 0 { body(first) }
        if count > 1 { body(second) }
        if count > 2 { body(third) }
        if count > 3 { body(fourth) }
    }

    /// The words that differ between two copies of a value's storage.
    ///
    /// Bit-identical words are unchanged: for value types, equal bits mean equal values. Blocks of
    /// 4 KB, then of 256 bytes, are compared with `memcmp` first, so an unchanged region costs a
    /// fraction of a word-by-word scan.
    ///
    /// - Complexity: O(*n*) in the size of the value, with no allocation.
    @inlinable
    static func between(_ old: UnsafeRawBufferPointer, _ new: UnsafeRawBufferPointer) -> ChangedWords {
        var changes = ChangedWords()
        let size = old.count
        guard size > 0, let oldBase = old.baseAddress, let newBase = new.baseAddress else { return changes }
        let wordCount = (size + 7) / 8
        let fullWords = size / 8

        @inline(__always)
        func differs(_ word: Int) -> Bool {
            if word < fullWords {
                return oldBase.loadUnaligned(fromByteOffset: word * 8, as: UInt64.self)
                    != newBase.loadUnaligned(fromByteOffset: word * 8, as: UInt64.self)
            }
            return memcmp(oldBase + word * 8, newBase + word * 8, size - word * 8) != 0
        }

        var word = 0
        while word < wordCount {
            // Skip unchanged blocks with one `memcmp` each: blocks of up to 4 KB, then 256-byte
            // ones, so a large state with one change costs a few calls, not one per 256 bytes.
            if word % 512 == 0 {
                // Up to 4 KB, or what is left of the value in whole 256-byte blocks.
                let block = min(512, (fullWords - word) / 32 * 32)
                if block > 32, memcmp(oldBase + word * 8, newBase + word * 8, block * 8) == 0 {
                    word += block
                    continue
                }
            }
            if word % 32 == 0, word + 32 <= fullWords, memcmp(oldBase + word * 8, newBase + word * 8, 256) == 0 {
                word += 32
                continue
            }
            guard differs(word) else {
                word += 1
                continue
            }
            let start = word
            while word < wordCount, differs(word) { word += 1 }
            changes.append(start..<word)
        }
        return changes
    }
}
