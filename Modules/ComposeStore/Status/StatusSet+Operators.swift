infix operator !~= : ComparisonPrecedence

extension StatusSet {
    /// Adds a status: `state.status += .loading`.
    public static func += (set: inout StatusSet, status: Status) {
        set.insert(status)
    }

    /// Removes a status: `state.status -= .loading`.
    public static func -= (set: inout StatusSet, status: Status) {
        set.remove(status)
    }

    /// Replaces every status with one: `state.status |= .loadingProfile`.
    public static func |= (set: inout StatusSet, status: Status) {
        set = [status]
    }

    /// Whether the set holds a status: `state.status ~= .loading`.
    public static func ~= (set: StatusSet, status: Status) -> Bool {
        set.contains(status)
    }

    /// Whether the set does not hold a status: `state.status !~= .loading`.
    public static func !~= (set: StatusSet, status: Status) -> Bool {
        !set.contains(status)
    }
}
