import Benchmark
import ComposeValidation

/// Validation scenarios: a 20-field form validated after each keystroke, and an `ArrayField`
/// over 10,000 and 100,000 elements.
func validationBenchmarks() {
    formAfterEachKeystroke()
    for count in [10_000, 100_000] { arrayField(count: count) }
}

/// A sign-up form of 20 fields, with the kinds of rules forms use.
private struct SignUpForm {
    var firstName = "Jill"
    var lastName = "Valentine"
    var email = "jill.valentine@example.com"
    var confirmEmail = "jill.valentine@example.com"
    var password = "correct horse battery staple"
    var confirmPassword = "correct horse battery staple"
    var username = "jill_v"
    var age = 23
    var phone = "+33 6 12 34 56 78"
    var street = "1 Main Street"
    var city = "Raccoon City"
    var postalCode = "90210"
    var country = "US"
    var company: String? = "S.T.A.R.S."
    var website: String? = nil
    var bio = "Member of the S.T.A.R.S. Alpha team."
    var referralCode = "AB1234"
    var newsletter = true
    var nickname: String? = "Jill"
    var acceptedTerms = true

    @ValidationBuilder
    var validation: Validation {
        Field(firstName, name: "firstName", rules: .nonBlank, .length(...50))
        Field(lastName, name: "lastName", rules: .nonBlank, .length(...50))
        Field(email, name: "email", rules: .nonEmpty, .email)
        Field(confirmEmail, name: "confirmEmail", rules: [.equal(to: email): "Emails do not match"])
        Field(password, name: "password", rules: .length(8...128))
        Field(confirmPassword, name: "confirmPassword", rules: .equal(to: password))
        Field(username, name: "username", rules: .pattern("[a-z0-9_]{3,20}"))
        Field(age, name: "age", rules: .range(13...130))
        Field(phone, name: "phone", rules: .pattern("\\+?[0-9 ]{6,20}"))
        Field(street, name: "street", rules: .nonBlank)
        Field(city, name: "city", rules: .nonBlank, .length(...100))
        Field(postalCode, name: "postalCode", rules: .pattern("[0-9]{5}"))
        Field(country, name: "country", rules: .length(2...2))
        Field(company, name: "company", rules: .length(1...100))
        Field(website, name: "website", rules: .length(4...200))
        Field(bio, name: "bio", rules: .length(...500))
        Field(referralCode, name: "referralCode", rules: .pattern("[A-Z]{2}[0-9]{4}"))
        Field(newsletter ? email : "", name: "newsletterEmail", rules: .email)
        Field(nickname, name: "nickname", rules: .required, .length(2...30))
        Field(acceptedTerms, name: "terms", rules: .equal(to: true))
    }
}

/// Each iteration types one character into the form's bio and validates the whole form, as a
/// form does on every keystroke.
private func formAfterEachKeystroke() {
    let keystrokes = 1_000
    final class Typing: @unchecked Sendable {
        var form = SignUpForm()
        var typed = 0  // so the benchmark does not count the bio's characters itself
    }
    let typing = Typing()
    Benchmark(
        "Validation/20-field form after a keystroke/Compose",
        configuration: scenario(ops: keystrokes, unit: "validations")
    ) { _ in
        for keystroke in 0..<keystrokes {
            if typing.typed == 400 {
                typing.form.bio = "Member"
                typing.typed = 0
            }
            typing.form.bio.append(keystroke.isMultiple(of: 5) ? " " : "a")
            typing.typed += 1
            blackHole(typing.form.validation.isValid)
        }
    }
}

private struct Specimen {
    var id: Int
    var title: String
}

private func arrayField(count: Int) {
    let specimens = (0..<count).map { Specimen(id: $0, title: "Specimen #\($0)") }
    Benchmark(
        "Validation/ArrayField \(count) elements/Compose",
        configuration: scenario(ops: 1, unit: "validations")
    ) { _ in
        let validation = Validation {
            ArrayField(specimens, name: "specimens", validIfEmpty: false, path: \Specimen.title, rules: .nonBlank, .length(...90))
        }
        blackHole(validation.isValid)
    }
}

extension Validation {
    fileprivate init(@ValidationBuilder _ content: () -> Validation) {
        self = content()
    }
}
