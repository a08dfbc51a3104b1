extension Rule where Value: StringProtocol {
    /// The value's length, in characters, is in `range`.
    ///
    /// Length counts what a user sees: `Character`s (extended grapheme clusters), so "é" written as
    /// `e` plus a combining accent is one, and so is a family emoji of seven Unicode scalars.
    ///
    /// - Complexity: O(min(*n*, `range.upperBound`)): counting stops past the upper bound, and
    ///   `0...Int.max` costs O(1).
    @inlinable
    public static func length(_ range: ClosedRange<Int>) -> Rule {
        Rule(label: { ("length(\(range))", "must be \(describe(range)) long") }) { value in
            Self.count(value, isWithin: range)
        }
    }

    /// The value has at least `range.lowerBound` characters.
    @inlinable
    public static func length(_ range: PartialRangeFrom<Int>) -> Rule {
        length(range.lowerBound...Int.max)
    }

    /// The value has at most `range.upperBound` characters.
    @inlinable
    public static func length(_ range: PartialRangeThrough<Int>) -> Rule {
        length(0...range.upperBound)
    }

    @inlinable
    static func count(_ value: Value, isWithin range: ClosedRange<Int>) -> Bool {
        if range.lowerBound <= 0, range.upperBound == Int.max { return true }
        // A character needs at least one UTF-8 byte: byte counts bound the count for free.
        let bytes = value.utf8.count
        if bytes < range.lowerBound { return false }
        if bytes <= range.upperBound, range.lowerBound <= 0 { return true }
        var count = 0
        for _ in value {
            count += 1
            if count > range.upperBound { return false }
        }
        return count >= range.lowerBound
    }

    @usableFromInline
    static func describe(_ range: ClosedRange<Int>) -> String {
        switch (range.lowerBound, range.upperBound) {
        case (let lower, Int.max): "at least \(lower) characters"
        case (...0, let upper): "at most \(upper) characters"
        case (let lower, let upper) where lower == upper: "exactly \(lower) characters"
        case (let lower, let upper): "\(lower) to \(upper) characters"
        }
    }
}

extension Rule where Value: Collection {
    /// The collection's element count is in `range`.
    ///
    /// For strings, the overload counting characters applies.
    ///
    /// - Complexity: O(1) for a random-access collection, O(*n*) otherwise.
    @inlinable
    public static func count(_ range: ClosedRange<Int>) -> Rule {
        Rule(label: { ("count(\(range))", "must have \(range.lowerBound) to \(range.upperBound) elements") }) {
            range.contains($0.count)
        }
    }
}
