/// A status a state can be in, such as `loading`: a `StatusSet` holds any number of them.
///
/// ```swift
/// enum Status: String, AnyStatus {
///     case loading, loadingProfile
/// }
/// ```
public protocol AnyStatus: Hashable, Codable, Sendable {}

/// The statuses a state is in, for showing progress: `state.status += .loading`.
///
/// ```swift
/// struct State: AnyState {
///     var status = StatusSet<Status>()
/// }
/// state.status += .loading
/// state.status -= .loading
/// if state.status ~= .loading { ... }
/// ```
///
/// A status is in the set at most once. Two sets are equal when they hold the same statuses,
/// whatever the order; iteration and encoding follow the order statuses were added, so an
/// encoded set is the same from run to run.
public struct StatusSet<Status: AnyStatus>: Sendable, Hashable, ExpressibleByArrayLiteral, Sequence,
    CustomStringConvertible
{
    /// The statuses, in the order they were added. Sets are small: linear search beats hashing.
    private var members: [Status]

    /// An empty set.
    public init() {
        members = []
    }

    /// A set of `statuses`, without duplicates.
    public init(_ statuses: some Sequence<Status>) {
        members = []
        for status in statuses { insert(status) }
    }

    public init(arrayLiteral statuses: Status...) {
        self.init(statuses)
    }

    /// Whether the set holds no status.
    public var isEmpty: Bool {
        members.isEmpty
    }

    /// The number of statuses in the set.
    public var count: Int {
        members.count
    }

    /// Whether the set holds `status`.
    ///
    /// - Complexity: O(*n*), with *n* the number of statuses in the set.
    public func contains(_ status: Status) -> Bool {
        members.contains(status)
    }

    /// Adds `status` if it is not in the set yet.
    ///
    /// - Returns: Whether it was added.
    @discardableResult
    public mutating func insert(_ status: Status) -> Bool {
        guard !members.contains(status) else { return false }
        members.append(status)
        return true
    }

    /// Removes `status`.
    ///
    /// - Returns: Whether it was in the set.
    @discardableResult
    public mutating func remove(_ status: Status) -> Bool {
        guard let index = members.firstIndex(of: status) else { return false }
        members.remove(at: index)
        return true
    }

    /// Removes every status.
    public mutating func removeAll() {
        members.removeAll()
    }

    public func makeIterator() -> IndexingIterator<[Status]> {
        members.makeIterator()
    }

    public static func == (lhs: StatusSet, rhs: StatusSet) -> Bool {
        lhs.members.count == rhs.members.count && lhs.members.allSatisfy(rhs.members.contains)
    }

    public func hash(into hasher: inout Hasher) {
        // Independent of order, like equality.
        hasher.combine(Set(members))
    }

    public var description: String {
        "[" + members.map { "\($0)" }.joined(separator: ", ") + "]"
    }
}

extension StatusSet: Codable {
    /// Encodes the statuses as an array, in the order they were added.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(members)
    }

    /// Decodes an array of statuses; a status that appears twice is kept once.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self.init(try container.decode([Status].self))
    }
}
