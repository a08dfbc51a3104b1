import ComposeValidation
import Testing

@Suite struct EmailTests {
    @Test(arguments: [
        "jill@example.com",
        "Jill.Valentine@Example.COM",  // mixed case
        "jill+newsletter@example.com",  // plus tag
        "jill.valentine+a.b@mail.example.co.uk",  // subdomains
        "j@example.io",  // one-letter local part
        "1234567890@example.com",  // digits
        "first_last@example.com",  // underscore in the local part
        "o'reilly@example.com",  // apostrophe
        "a!#$%&'*+-/=?^_`{|}~z@example.com",  // every atext symbol
        "user@sub-domain.example.org",  // hyphen inside a label
        "user@xn--bcher-kva.example",  // international domain, ASCII form
        "user@example.xn--p1ai",  // international top-level domain, ASCII form
        "user@123.example.com",  // numeric label (not the last)
        "user@a.b.c.d.example.com",  // many labels
        "x@x.io",  // shortest sensible
        "user@EXAMPLE.travel",  // long top-level domain
        "user.name@example.com",  // a dot inside
        "user@example-site.com",
        "u@9a.example.com",
        "user@example.museum",
        "we@tt.t7",  // top-level domain with a digit and a letter
    ])
    func accepts(_ address: String) {
        #expect(Rule.email.isSatisfied(by: address), "\(address) should be accepted")
    }

    @Test(arguments: [
        "",  // empty
        "jill",  // no @
        "@example.com",  // no local part
        "jill@",  // no domain
        "jill@@example.com",  // two @
        "jill@foo@example.com",  // two @ apart
        "jill @example.com",  // space in the local part
        "jill@exa mple.com",  // space in the domain
        " jill@example.com",  // leading space
        "jill@example.com ",  // trailing space
        ".jill@example.com",  // dot first
        "jill.@example.com",  // dot last
        "jill..valentine@example.com",  // two dots
        "jill@example",  // no top-level domain
        "jill@example.",  // trailing dot
        "jill@.example.com",  // empty first label
        "jill@example..com",  // empty label
        "jill@-example.com",  // label starts with a hyphen
        "jill@example-.com",  // label ends with a hyphen
        "jill@exam_ple.com",  // underscore in the domain
        "jill@example,com",  // comma for a dot
        "jill@example.c",  // one-letter top-level domain
        "jill@example.123",  // numeric top-level domain
        "jill@localhost",  // single label
        "jill@[192.168.0.1]",  // IP literal
        "\"jill valentine\"@example.com",  // quoted local part
        "jillé@example.com",  // non-ASCII local part
        "jill@bücher.example",  // international domain not in ASCII form
        "jill@example.com.",  // trailing dot after the top-level domain
        "jill(comment)@example.com",  // comment
        "jill<jill@example.com>",  // display-name form
        "jill@exam\\ple.com",  // backslash
        "jill@example.com\n",  // newline
        String(repeating: "a", count: 65) + "@example.com",  // local part over 64
        "jill@" + String(repeating: "a", count: 64) + ".com",  // label over 63
        "jill@" + Array(repeating: String(repeating: "a", count: 60), count: 5).joined(separator: ".") + ".com",  // over 254
    ])
    func rejects(_ address: String) {
        #expect(!Rule.email.isSatisfied(by: address), "\(address) should be rejected")
    }

    @Test func limitsAreInclusive() {
        let local = String(repeating: "a", count: 64)
        #expect(Rule.email.isSatisfied(by: local + "@example.com"))
        let label = String(repeating: "b", count: 63)
        #expect(Rule.email.isSatisfied(by: "a@" + label + ".com"))
        // 254 characters in all: the longest accepted.
        let domain = [String](repeating: String(repeating: "c", count: 61), count: 3).joined(separator: ".") + ".com"
        let address = String(repeating: "a", count: 254 - 1 - domain.count) + "@" + domain
        #expect(address.count == 254)
        #expect(Rule.email.isSatisfied(by: address))
        #expect(!Rule.email.isSatisfied(by: "a" + address))
    }

    @Test func substringsWork() {
        let text = "contact: jill@example.com"
        #expect(Rule<Substring>.email.isSatisfied(by: text.split(separator: " ")[1]))
    }
}
