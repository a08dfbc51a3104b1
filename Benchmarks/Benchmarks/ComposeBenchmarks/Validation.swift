import Benchmark
@_spi(Benchmarks) import ComposeValidation

/// Validation scenarios: a 20-field form validated after each keystroke, an `ArrayField`
/// over 10,000 and 100,000 elements, and `Pattern`'s worst cases: a program at the size limit,
/// and character classes of 20 and 20,000 members.
func validationBenchmarks() {
    formAfterEachKeystroke()
    for count in [10_000, 100_000] { arrayField(count: count) }
    patternAtTheSizeLimit()
    for members in [20, 20_000] { bigClass(members: members) }
}

/// `(?:.{0,999}){5}` compiles to 9,991 instructions (the limit is 10,000) and keeps thousands of
/// threads alive on every character of a 10,000-character value: the worst case the docs bound
/// at 2 × (n + 1) × m visits. One operation is one instruction visit, so the figure is the time
/// per visit the docs quote.
private func patternAtTheSizeLimit() {
    let pattern = try! Pattern("(?:.{0,999}){5}")
    precondition((9_900...10_000).contains(pattern.size), "the pattern is \(pattern.size) instructions")
    let value = String(repeating: "a", count: 10_000)
    let visits = pattern.steps(toMatch: value)
    precondition(visits <= 2 * 10_001 * pattern.size && visits > 10_000 * 1_000, "\(visits) visits")
    Benchmark(
        "Validation/pattern at the size limit, 10,000 characters/Compose",
        configuration: scenario(ops: visits, unit: "visits")
    ) { _ in
        blackHole(pattern.matches(value))
    }
}

/// `[...]+` over 10,000 non-ASCII characters, with a class of `members` scattered characters
/// (none adjacent, so none merge): membership is a bisection of the class's ranges.
private func bigClass(members: Int) {
    let scalars = (0..<members).map { Character(Unicode.Scalar(UInt32(0x20000 + 2 * $0))!) }
    let pattern = try! Pattern("[" + String(scalars) + "]+")
    let value = String((0..<10_000).map { scalars[$0 % members] })
    precondition(pattern.matches(value))
    Benchmark(
        "Validation/class of \(members) members, 10,000 characters/Compose",
        configuration: scenario(ops: value.count, unit: "characters")
    ) { _ in
        blackHole(pattern.matches(value))
    }
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

/// Every element's title checked by two rules, as a list screen validates its rows: titles of 40
/// to 50 characters, so each is a string on the heap, as an app's are.
private func arrayField(count: Int) {
    let specimens = (0..<count).map { Specimen(id: $0, title: "Specimen #\($0) of the natural history collection") }
    Benchmark(
        "Validation/ArrayField \(count) elements/Compose",
        configuration: scenario(ops: 1, unit: "validations")
    ) { _ in
        let validation = Validation {
            ArrayField(specimens, name: "specimens", validIfEmpty: false, path: \Specimen.title, rules: .nonBlank, .length(...90))
        }
        blackHole(validation.isValid)
    }
    // Not a peer: a floor. The rules' own work written as a loop over the same array (a character
    // that is not whitespace, then the length: the UTF-8 count bounds the character count, which
    // is counted only past 90 bytes, as `.nonBlank` and `.length(...90)` do), with nothing else:
    // how much of the cost of 100,000 elements against 10,000 any validation of these strings
    // pays, since the machine's caches hold fewer of them.
    Benchmark(
        "Validation/ArrayField \(count) elements/floor: the rules' checks in a loop",
        configuration: scenario(ops: 1, unit: "validations")
    ) { _ in
        var valid = 0
        for specimen in specimens {
            let title = specimen.title
            if title.contains(where: { !$0.isWhitespace }) && (title.utf8.count <= 90 || title.count <= 90) {
                valid += 1
            }
        }
        precondition(valid == count, "every title is valid")
    }
}

extension Validation {
    fileprivate init(@ValidationBuilder _ content: () -> Validation) {
        self = content()
    }
}
