extension Rule where Value: Comparable & Sendable {
    /// The value is in `range`: any `Comparable`, such as a number or a date.
    ///
    /// ```swift
    /// Field(age, rules: .range(18...130))
    /// ```
    @inlinable
    public static func range(_ range: ClosedRange<Value>) -> Rule {
        Rule(label: { ("range(\(range))", "must be between \(range.lowerBound) and \(range.upperBound)") }) {
            range.contains($0)
        }
    }

    /// The value is at least `range.lowerBound`.
    @inlinable
    public static func range(_ range: PartialRangeFrom<Value>) -> Rule {
        Rule(label: { ("range(\(range.lowerBound)...)", "must be at least \(range.lowerBound)") }) {
            range.contains($0)
        }
    }

    /// The value is at most `range.upperBound`.
    @inlinable
    public static func range(_ range: PartialRangeThrough<Value>) -> Rule {
        Rule(label: { ("range(...\(range.upperBound))", "must be at most \(range.upperBound)") }) {
            range.contains($0)
        }
    }
}
