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
    public static func buildExpression(_ field: Field) -> Validation {
        Validation(errors: field.errors)
    }

    public static func buildExpression(_ field: ArrayField) -> Validation {
        Validation(errors: field.errors)
    }

    public static func buildExpression(_ validation: Validation) -> Validation {
        validation
    }

    public static func buildBlock(_ parts: Validation...) -> Validation {
        joined(parts)
    }

    public static func buildOptional(_ part: Validation?) -> Validation {
        part ?? Validation()
    }

    public static func buildEither(first part: Validation) -> Validation {
        part
    }

    public static func buildEither(second part: Validation) -> Validation {
        part
    }

    public static func buildArray(_ parts: [Validation]) -> Validation {
        joined(parts)
    }

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
