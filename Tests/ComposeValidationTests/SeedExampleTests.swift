import ComposeValidation
import Testing

/// The "Validating State" examples of Compose's README, with a plain struct standing in for the
/// `AnyState` state (ComposeValidation depends on no other module).
@Suite struct SeedExampleTests {
    struct SimpleState {
        var email: String = ""
        var password: String = ""

        var isValid: Bool {
            // Very simple validation example
            email.isEmpty == false && password.isEmpty == false && password.count > 10
        }

        @ValidationBuilder
        var credentials: Validation {
            Field(email, rules: .nonEmpty, .email)
            Field(password, rules: .length(6...1000))
        }
    }

    struct MessagesState {
        var email: String = ""
        var password: String = ""

        @ValidationBuilder
        var credentials: Validation {
            Field(
                email,
                rules: [
                    .nonEmpty: "Email address must be non-empty",
                    .email: "Invalid email address format",
                ])
            Field(
                password,
                rules: [
                    .length(6...1000): "Password must be at least 6 characters long"
                ])
        }
    }

    @Test func plainSwiftValidation() {
        #expect(SimpleState(email: "a@b.co", password: "0123456789x").isValid)
        #expect(!SimpleState(email: "a@b.co", password: "short").isValid)
    }

    @Test func validationBuilder() {
        #expect(SimpleState(email: "jill@example.com", password: "secret!").credentials.isValid)
        let invalid = SimpleState(email: "jill", password: "abc").credentials
        // `.disabled(state.credentials.isValid == false)`
        #expect(invalid.isValid == false)
        #expect(invalid.errors.map(\.rule) == ["email", "length(6...1000)"])
    }

    @Test func messagesInDeclarationOrder() {
        let empty = MessagesState().credentials
        #expect(
            empty.messages == [
                "Email address must be non-empty",
                "Password must be at least 6 characters long",
            ]
        )
        let badFormat = MessagesState(email: "jill@", password: "123456").credentials
        #expect(badFormat.messages == ["Invalid email address format"])
    }

    @Test func fieldWithOneRule() {
        let firstName = ""
        #expect(Validation { Field(firstName, rules: .nonEmpty) }.isValid == false)
    }

    @Test func arrayField() {
        struct ArrayElementType {
            var title: String
        }
        let arrayToValidate = [
            ArrayElementType(title: "First"), ArrayElementType(title: ""),
            ArrayElementType(title: String(repeating: "x", count: 91)),
        ]
        let validation = Validation {
            ArrayField(
                arrayToValidate,
                validIfEmpty: true,
                path: \ArrayElementType.title,
                rules: .nonEmpty, .length(0...90))
        }
        #expect(validation.errors.map(\.element) == [1, 2])
        #expect(validation.errors.map(\.rule) == ["nonEmpty", "length(0...90)"])
        #expect(Validation { ArrayField([ArrayElementType](), validIfEmpty: true, path: \.title, rules: .nonEmpty) }.isValid)
        #expect(!Validation { ArrayField([ArrayElementType](), validIfEmpty: false, path: \.title, rules: .nonEmpty) }.isValid)
    }

    @Test func predefinedRules() {
        let repeatedPassword = "secret"
        #expect(Rule.nonEmpty.isSatisfied(by: "x"))
        #expect(Rule.email.isSatisfied(by: "jill@example.com"))
        #expect(Rule.length(10...30).isSatisfied(by: "ten chars!"))
        #expect(Rule.equal(to: repeatedPassword).isSatisfied(by: "secret"))
        #expect(!Rule.equal(to: repeatedPassword).isSatisfied(by: "Secret"))
    }
}

/// Validation built inline, for tests: `Validation { ... }`.
extension Validation {
    init(@ValidationBuilder _ content: () -> Validation) {
        self = content()
    }
}
