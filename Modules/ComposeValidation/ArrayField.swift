/// Every element of an array checked against rules, inside a ``ValidationBuilder``.
///
/// ```swift
/// ArrayField(specimens,
///            validIfEmpty: true,
///            path: \Specimen.title,
///            rules: .nonEmpty, .length(0...90))
/// ```
///
/// Each element's error says which element failed (``ValidationError/element``). An empty array
/// is valid if `validIfEmpty` says so, and otherwise fails with the rule `"nonEmpty"`.
///
/// - Complexity: O(*n*) in the number of elements, times the cost of the rules.
public struct ArrayField: Sendable {
    /// The errors: the first failing rule of each element that failed, in element order.
    public let errors: [ValidationError]

    /// Checks the value at `path` of every element of `array`.
    ///
    /// - Parameters:
    ///   - array: The elements.
    ///   - name: The field's name, for ``Validation/errors(for:)``.
    ///   - validIfEmpty: Whether an empty array is valid.
    ///   - path: The value of each element to check.
    ///   - rules: The rules, checked in order, per element.
    @inlinable
    public init<Elements: Collection, Value>(
        _ array: Elements,
        name: String? = nil,
        validIfEmpty: Bool = true,
        path: KeyPath<Elements.Element, Value>,
        rules: Rule<Value>...
    ) {
        self.init(array, name: name, validIfEmpty: validIfEmpty, value: { $0[keyPath: path] }, rules: rules.map { ($0, nil) })
    }

    /// Checks the value at `path` of every element, each rule with its message.
    @inlinable
    public init<Elements: Collection, Value>(
        _ array: Elements,
        name: String? = nil,
        validIfEmpty: Bool = true,
        path: KeyPath<Elements.Element, Value>,
        rules: KeyValuePairs<Rule<Value>, String>
    ) {
        self.init(
            array, name: name, validIfEmpty: validIfEmpty, value: { $0[keyPath: path] }, rules: rules.map { ($0.key, $0.value) })
    }

    /// Checks every element itself.
    ///
    /// ```swift
    /// ArrayField(tags, validIfEmpty: false, rules: .nonBlank, .length(...30))
    /// ```
    @inlinable
    public init<Elements: Collection>(
        _ array: Elements,
        name: String? = nil,
        validIfEmpty: Bool = true,
        rules: Rule<Elements.Element>...
    ) {
        self.init(array, name: name, validIfEmpty: validIfEmpty, value: { $0 }, rules: rules.map { ($0, nil) })
    }

    @inlinable
    init<Elements: Collection, Value>(
        _ array: Elements,
        name: String?,
        validIfEmpty: Bool,
        value: (Elements.Element) -> Value,
        rules: [(Rule<Value>, String?)]
    ) {
        if array.isEmpty {
            errors =
                validIfEmpty
                ? []
                : [
                    ValidationError(
                        field: name,
                        element: nil,
                        rule: "nonEmpty",
                        message: "\(name ?? "value") must not be empty"
                    )
                ]
            return
        }
        var errors: [ValidationError] = []
        for (index, element) in array.enumerated() {
            errors += Field.check(value(element), name: name, element: index, rules)
        }
        self.errors = errors
    }
}
