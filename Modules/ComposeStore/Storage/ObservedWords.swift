/// The words of a state's storage an observer's values occupy: what indexes it in the store's
/// ``ObserverRegistry``.
///
/// One run, the common case (an observer of one stored property), is held inline: an array of one
/// element would cost every such observer an allocation of its own.
@usableFromInline
enum ObservedWords: Sendable {
    /// A key path without a storage offset (a computed property, optional chaining, a class
    /// reference): the observer is checked on every change.
    case anywhere
    /// The words of one value.
    case run(Range<Int>)
    /// The words of several values, in the order of their key paths.
    case runs([Range<Int>])

    /// The words of `runs`, or ``anywhere`` for `nil`.
    @inlinable
    init(_ runs: [Range<Int>]?) {
        switch runs {
        case nil: self = .anywhere
        case let runs? where runs.count == 1: self = .run(runs[0])
        case let runs?: self = .runs(runs)
        }
    }

    /// The words of `run`, or ``anywhere`` for `nil`.
    @inlinable
    init(_ run: Range<Int>?) {
        self = run.map { .run($0) } ?? .anywhere
    }

    /// Whether the observer has a place in the storage (every value has an offset).
    @inlinable
    var isIndexed: Bool {
        if case .anywhere = self { return false }
        return true
    }

    /// Calls `body` with each run of words; never for ``anywhere``.
    @inlinable
    func forEachRun(_ body: (Range<Int>) -> Void) {
        switch self {
        case .anywhere: break
        case .run(let run): body(run)
        case .runs(let runs): for run in runs { body(run) }
        }
    }
}
