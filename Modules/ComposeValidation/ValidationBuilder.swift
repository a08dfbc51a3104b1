/// Builds a ``Validation`` from fields, arrays of fields, nested validations and control flow.
///
/// ```swift
/// @ValidationBuilder
/// var form: Validation {
///     Field(name, name: "name", rules: .nonBlank)
///     if wantsNewsletter {
///         Field(email, name: "email", rules: .required, .email)
///     }
///     switch kind {
///     case .person: Field(birthday, name: "birthday", rules: .range(...Date.now))
///     case .company: Field(vatNumber, name: "vat", rules: .pattern("[A-Z]{2}[0-9A-Z]{2,12}"))
///     }
///     for (index, phone) in phones.enumerated() {
///         Field(phone, name: "phone\(index)", rules: .pattern("\\+?[0-9 ]{6,20}"))
///     }
///     address.validation  // a nested Validation
/// }
/// ```
@resultBuilder
public enum ValidationBuilder {
    /// A field's errors, as a validation.
    public static func buildExpression(_ field: Field) -> Validation {
        Validation(errors: field.errors)
    }

    /// An array field's errors, element by element, as a validation.
    public static func buildExpression(_ field: ArrayField) -> Validation {
        Validation(errors: field.errors)
    }

    /// A nested validation, as it is.
    public static func buildExpression(_ validation: Validation) -> Validation {
        validation
    }

    /// The errors of every part, in declaration order.
    public static func buildBlock(_ parts: Validation...) -> Validation {
        joined(parts)
    }

    /// An `if` without `else`: its part's errors when the condition held, none otherwise.
    public static func buildOptional(_ part: Validation?) -> Validation {
        part ?? Validation()
    }

    /// The first branch of an `if`/`else` or `switch`.
    public static func buildEither(first part: Validation) -> Validation {
        part
    }

    /// The second branch of an `if`/`else` or `switch`.
    public static func buildEither(second part: Validation) -> Validation {
        part
    }

    /// A `for` loop: the errors of every iteration, in order.
    public static func buildArray(_ parts: [Validation]) -> Validation {
        joined(parts)
    }

    /// An `if #available` branch, as it is.
    public static func buildLimitedAvailability(_ part: Validation) -> Validation {
        part
    }

    private static func joined(_ parts: [Validation]) -> Validation {
        // Valid parts, the common case, cost nothing.
        let failing = parts.lazy.filter { !$0.isValid }
        guard let first = failing.first else { return Validation() }
        var errors = first.errors
        for part in failing.dropFirst() { errors += part.errors }
        return Validation(errors: errors)
    }
}
