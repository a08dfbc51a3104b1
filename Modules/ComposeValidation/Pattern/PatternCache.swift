import Synchronization

/// Compiled patterns by source, so `.pattern("...")` inside a computed validation compiles once.
///
/// Lock-free: a fixed table of slots, each set at most once with an atomic compare-and-swap. A
/// source hashes to a slot; if the slot holds another source, the pattern is compiled without
/// being cached. The table never grows, so a form with thousands of distinct patterns costs
/// memory for at most `slotCount` of them.
enum PatternCache {
    static let slotCount = 512

    private final class Slot: Sendable {
        let entry = AtomicLazyReference<Entry>()
    }

    private final class Entry: Sendable {
        let source: String
        let pattern: Result<Pattern, PatternError>

        init(_ source: String) {
            self.source = source
            do {
                pattern = .success(try Pattern(source))
            } catch {
                pattern = .failure(error)
            }
        }
    }

    private static let slots = (0..<slotCount).map { _ in Slot() }

    /// The compiled `source`, from the cache when possible.
    static func pattern(_ source: String) -> Result<Pattern, PatternError> {
        let slot = slots[Int(UInt(bitPattern: source.hashValue) % UInt(slotCount))]
        if let entry = slot.entry.load() {
            return entry.source == source ? entry.pattern : Entry(source).pattern
        }
        let entry = slot.entry.storeIfNil(Entry(source))
        return entry.source == source ? entry.pattern : Entry(source).pattern
    }
}
