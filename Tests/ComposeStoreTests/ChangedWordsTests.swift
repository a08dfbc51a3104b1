import ComposeTestSupport
import Testing

@testable import ComposeStore

@Suite struct ChangedWordsTests {
    func changes(_ old: [UInt8], _ new: [UInt8]) -> [Range<Int>] {
        let found = old.withUnsafeBytes { old in new.withUnsafeBytes { new in ChangedWords.between(old, new) } }
        var runs: [Range<Int>] = []
        found.forEachRun { runs.append($0) }
        return runs
    }

    @Test(arguments: [1, 7, 8, 9, 255, 256, 257, 1_000, 8_192])
    func identicalBytesChangeNothing(size: Int) {
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        #expect(changes(bytes, bytes).isEmpty)
    }

    @Test(arguments: [0, 7, 8, 255, 256, 300, 1_023, 4_095])
    func oneChangedByteIsFoundInItsWord(position: Int) {
        let old = [UInt8](repeating: 0, count: 4_096)
        var new = old
        new[position] = 1
        #expect(changes(old, new) == [(position / 8)..<(position / 8 + 1)])
    }

    /// Up to four changed bytes at random places (seeded by the size) in values of many sizes (so in 4 KB
    /// blocks, in the shorter block at the tail, in 256-byte blocks and in a partial last word):
    /// the runs found are exactly the changed words, merged where adjacent, as a word-by-word
    /// comparison finds them.
    @Test(arguments: [8, 263, 4_096, 4_104, 8_000, 8_003, 12_288, 20_000])
    func randomChangesAreFoundExactly(size: Int) {
        var generator = SplitMix64(seed: UInt64(size))
        for _ in 0..<200 {
            let old = [UInt8](repeating: 7, count: size)
            var new = old
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                new[Int.random(in: 0..<size, using: &generator)] = 9
            }
            var expected: [Range<Int>] = []
            for word in 0..<((size + 7) / 8) {
                let bytes = (word * 8)..<min(word * 8 + 8, size)
                guard old[bytes] != new[bytes] else { continue }
                if let last = expected.last, last.upperBound == word {
                    expected[expected.count - 1] = last.lowerBound..<(word + 1)
                } else {
                    expected.append(word..<(word + 1))
                }
            }
            #expect(changes(old, new) == expected, "size \(size)")
        }
    }

    @Test func aTailShorterThanAWordIsCompared() {
        let old: [UInt8] = Array(repeating: 0, count: 13)
        var new = old
        new[12] = 9
        #expect(changes(old, new) == [1..<2])
    }

    @Test func adjacentWordsMergeIntoOneRun() {
        let old = [UInt8](repeating: 0, count: 64)
        var new = old
        new[8] = 1
        new[16] = 1
        new[40] = 1
        #expect(changes(old, new) == [1..<3, 5..<6])
    }

    @Test func aFifthRunWidensTheFourth() {
        let old = [UInt8](repeating: 0, count: 128)
        var new = old
        for word in [0, 2, 4, 6, 8, 10] { new[word * 8] = 1 }
        // Exact up to four runs; past that the fourth covers the rest (a superset, never less).
        #expect(changes(old, new) == [0..<1, 2..<3, 4..<5, 6..<11])
    }

    /// Runs are kept in 32 bits a bound: the largest that fits comes back as it went in; one past
    /// it (a state of 32 GB) makes the change cover everything, a superset, never less.
    @Test func runsBeyondThirtyTwoBitsOfWordsCoverEverything() {
        let last = Int(UInt32.max)
        var changes = ChangedWords()
        changes.append(3..<5)
        changes.append((last - 2)..<last)
        var runs: [Range<Int>] = []
        changes.forEachRun { runs.append($0) }
        #expect(runs == [3..<5, (last - 2)..<last])
        #expect(!changes.everything)
        changes.append(last..<(last + 1))
        #expect(changes.everything)
        #expect(!changes.isEmpty)
        #expect(ChangedWords(offset: last * 8, size: 16).everything)
    }

    /// What `ChangedWords` and `StoreNotice` say of their size: four runs and the flags in 34
    /// bytes, a notice in 50 (104 with runs of two `Int`s each).
    @Test func aNoticeOfChangedWordsIsFiftyBytes() {
        #expect(MemoryLayout<ChangedWords>.size == 34)
        #expect(MemoryLayout<StoreNotice>.size == 50)
    }

    @Test func aKeyPathFootprintCoversItsBytes() {
        #expect(ChangedWords.words(offset: 12, size: 8) == 1..<3)
        #expect(ChangedWords.words(offset: 16, size: 1) == 2..<3)
        #expect(ChangedWords.words(offset: 16, size: 0).isEmpty)
        #expect(ChangedWords(offset: 16, size: 0).isEmpty)
    }
}
