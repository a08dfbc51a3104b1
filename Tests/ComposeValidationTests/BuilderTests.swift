import ComposeValidation
import Testing

@Suite struct BuilderTests {
    enum Kind { case person, company }

    struct Form {
        var name = ""
        var email: String? = nil
        var wantsNewsletter = false
        var kind = Kind.person
        var age = 0
        var vatNumber = ""
        var phones: [String] = []
        var street = ""
        var city = ""

        @ValidationBuilder
        var address: Validation {
            Validation("address") {
                Field(street, name: "street", rules: .nonBlank)
                Field(city, name: "city", rules: .nonBlank)
            }
        }

        @ValidationBuilder
        var validation: Validation {
            Field(name, name: "name", rules: .nonBlank)
            if wantsNewsletter {
                Field(email, name: "email", rules: .required, .email)
            } else {
                Field(email, name: "email", rules: .email)
            }
            switch kind {
            case .person: Field(age, name: "age", rules: .range(18...130))
            case .company: Field(vatNumber, name: "vat", rules: .pattern("[A-Z]{2}[0-9A-Z]{2,12}"))
            }
            for (index, phone) in phones.enumerated() {
                Field(phone, name: "phone\(index)", rules: .pattern("\\+?[0-9 ]{6,20}"))
            }
            if #available(macOS 15, iOS 18, *) {
                address
            }
        }
    }

    @Test func errorsFollowDeclarationOrderAndSayWhere() {
        var form = Form()
        form.wantsNewsletter = true
        form.phones = ["+33 6 12 34 56 78", "call me"]
        let validation = form.validation
        #expect(validation.errors.map(\.field) == ["name", "email", "age", "phone1", "address.street", "address.city"])
        #expect(
            validation.errors.map(\.rule) == [
                "nonBlank", "required", "range(18...130)", "pattern(\\+?[0-9 ]{6,20})", "nonBlank", "nonBlank",
            ])
        #expect(validation.message(for: "age") == "age must be between 18 and 130")
        #expect(validation.isValid("phone0"))
        #expect(!validation.isValid("phone1"))
    }

    @Test func branchesChooseTheirFields() {
        var form = Form(name: "ACME", kind: .company, street: "1 Main St", city: "Springfield")
        form.vatNumber = "FR12345678"
        #expect(form.validation.isValid)
        form.vatNumber = "nope"
        #expect(form.validation.errors.map(\.field) == ["vat"])
        form.wantsNewsletter = false
        form.email = "not an address"
        #expect(form.validation.errors.map(\.field) == ["email", "vat"])
    }

    @Test func theSameStateAlwaysGivesTheSameErrors() {
        let form = Form(phones: ["x", "y", "z"])
        let first = form.validation.errors
        for _ in 0..<100 { #expect(form.validation.errors == first) }
    }

    @Test func messagesKeepTheirWrittenOrder() {
        let errors = Validation {
            Field("", name: "a", rules: [.nonEmpty: "first", .email: "second"])
            Field("x", name: "b", rules: [.email: "third", .nonEmpty: "fourth"])
        }
        #expect(errors.messages == ["first", "third"])
        #expect(errors.errors(for: "b").map(\.rule) == ["email"])
    }

    @Test func arrayFieldsReportElements() {
        struct Item { var title: String }
        let items = [Item(title: "ok"), Item(title: " "), Item(title: "ok"), Item(title: "")]
        let validation = Validation {
            ArrayField(items, name: "items", path: \Item.title, rules: [.nonBlank: "Each item needs a title"])
            ArrayField(["a", "", "c"], name: "tags", rules: .nonEmpty)
        }
        #expect(validation.errors(for: "items").map(\.element) == [1, 3])
        #expect(validation.errors(for: "tags").map(\.element) == [1])
        #expect(validation.errors(for: "tags").first?.message == "tags[1] must not be empty")
        #expect(validation.messages.first == "Each item needs a title")
    }

    @Test func emptyArraysFollowValidIfEmpty() {
        let empty: [String] = []
        #expect(Validation { ArrayField(empty, rules: .nonEmpty) }.isValid)
        let failing = Validation { ArrayField(empty, name: "tags", validIfEmpty: false, rules: .nonEmpty) }
        #expect(
            failing.errors == [ValidationError(field: "tags", element: nil, rule: "nonEmpty", message: "tags must not be empty")])
    }

    @Test func anEmptyBuilderIsValid() {
        #expect(Validation {}.isValid)
        #expect(Validation().description == "valid")
    }
}
