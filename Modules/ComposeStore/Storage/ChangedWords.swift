import ComposeMachinery

/// Which 8-byte words of a state's storage a write changed.
///
/// Up to four runs of words are kept exactly; a fifth run widens the last one, which may make
/// the store look at more observers than needed but never at fewer. `everything` stands for
/// writes whose footprint is unknown (a key path through a computed property).
@usableFromInline
struct ChangedWords: Sendable {
    // Each run in one word: its lower bound in the low 32 bits, its upper bound in the high 32
    // (a run past 2^32 words, a 32 GB state, makes the whole `everything`). Packed, the notice
    // that carries a commit's changes (`StoreNotice`) is 50 bytes rather than 104, copied into
    // and out of the notifier on every heard commit.
    @usableFromInline var packedFirst: UInt64 = 0
    @usableFromInline var packedSecond: UInt64 = 0
    @usableFromInline var packedThird: UInt64 = 0
    @usableFromInline var packedFourth: UInt64 = 0
    @usableFromInline var runCount: UInt8 = 0
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
        append(Self.words(offset: offset, size: size))
    }

    /// The run of words spanned by `size` bytes at `offset` (empty if `size` is 0).
    @inlinable
    static func words(offset: Int, size: Int) -> Range<Int> {
        guard size > 0 else { return (offset / 8)..<(offset / 8) }
        return (offset / 8)..<((offset + size + 7) / 8)
    }

    @inlinable
    var isEmpty: Bool {
        !everything && runCount == 0
    }

    @inlinable
    static func pack(_ run: Range<Int>) -> UInt64? {
        guard run.upperBound <= Int(UInt32.max) else { return nil }
        return UInt64(truncatingIfNeeded: run.lowerBound) | UInt64(truncatingIfNeeded: run.upperBound) << 32
    }

    @inlinable
    static func unpack(_ packed: UInt64) -> Range<Int> {
        Int(truncatingIfNeeded: packed & 0xFFFF_FFFF)..<Int(truncatingIfNeeded: packed >> 32)
    }

    @inlinable
    mutating func append(_ run: Range<Int>) {
        guard let packed = Self.pack(run) else {
            everything = true
            return
        }
        switch runCount {
        case 0: packedFirst = packed
        case 1: packedSecond = packed
        case 2: packedThird = packed
        case 3: packedFourth = packed
        default:
            packedFourth = packedFourth & 0xFFFF_FFFF | packed & 0xFFFF_FFFF_0000_0000
            return
        }
        runCount += 1
    }

    /// Calls `body` with each changed run.
    @inlinable
    func forEachRun(_ body: (Range<Int>) -> Void) {
        if runCount > 0 { body(Self.unpack(packedFirst)) }
        if runCount > 1 { body(Self.unpack(packedSecond)) }
        if runCount > 2 { body(Self.unpack(packedThird)) }
        if runCount > 3 { body(Self.unpack(packedFourth)) }
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
