/// How the event log prints a value of a store's state: as `String(reflecting:)` prints it, except
/// where that would stop the program.
///
/// Foundation's `Date` traps in its `description` when its interval is infinite or NaN, a date no
/// calendar holds, and a state can hold one. A value that holds such a date anywhere its mirror
/// reaches (in a property, an optional, a collection, a dictionary, a tuple or an enum's payload)
/// is printed from its mirror instead, in the same shape, with the date as
/// `FoundationEssentials.Date(timeIntervalSinceReferenceDate: nan)`. Classes are not looked into
/// (`String(reflecting:)` prints only their type name), nor is a type's own description: a custom
/// `description` that prints such a date itself still traps. Values hold no cycles without a
/// class, so the search reaches every value, however deep.
///
/// This module does not import Foundation, so it recognises a date by its type's name and its
/// public mirror, one `Double` labelled `timeIntervalSinceReferenceDate`.
/// `StoreEventLogDateTests.foundationsDateMirrorsAsTheEventLogExpects` pins both.
enum LoggedValue {
    /// The text the event log records for `value`.
    static func describe(_ value: Any) -> String {
        guard holdsUnprintableDate(value) else { return String(reflecting: value) }
        let mirror = Mirror(reflecting: value)
        let children = mirror.children.map { (label: $0.label, text: describe($0.value)) }
        // A tuple's unlabelled elements mirror with the labels ".0", ".1" and so on.
        let labelled = children.map { child in
            child.label.flatMap { $0.hasPrefix(".") ? nil : "\($0): \(child.text)" } ?? child.text
        }
        switch mirror.displayStyle {
        case .optional:
            return "Optional(\(children.first?.text ?? "nil"))"
        case .collection:
            return "[\(children.map(\.text).joined(separator: ", "))]"
        case .set:
            return "Set([\(children.map(\.text).joined(separator: ", "))])"
        case .dictionary:
            let pairs = mirror.children.map { pair in
                Mirror(reflecting: pair.value).children.map { describe($0.value) }
                    .joined(separator: ": ")
            }
            return "[\(pairs.joined(separator: ", "))]"
        case .tuple:
            return "(\(labelled.joined(separator: ", ")))"
        case .enum:
            // One child: the case, labelled with its name, its payload the value.
            let payload = children.first.map { $0.text.hasPrefix("(") ? $0.text : "(\($0.text))" } ?? ""
            return "\(String(reflecting: mirror.subjectType)).\(children.first?.label ?? "")\(payload)"
        default:
            return "\(String(reflecting: mirror.subjectType))(\(labelled.joined(separator: ", ")))"
        }
    }

    /// Whether printing `value` with `String(reflecting:)` would reach a date no calendar holds.
    private static func holdsUnprintableDate(_ value: Any) -> Bool {
        if isUnprintableDate(value) { return true }
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle != .class else { return false }
        return mirror.children.contains { holdsUnprintableDate($0.value) }
    }

    /// The type names Foundation's `Date` has on the platforms this package builds for.
    static let dateTypeNames: Set<String> = ["FoundationEssentials.Date", "Foundation.Date"]

    private static func isUnprintableDate(_ value: Any) -> Bool {
        guard dateTypeNames.contains(String(reflecting: type(of: value))) else { return false }
        let children = Mirror(reflecting: value).children
        guard children.count == 1, let child = children.first,
            child.label == "timeIntervalSinceReferenceDate", let interval = child.value as? Double
        else {
            assertionFailure("Date no longer mirrors as one Double labelled timeIntervalSinceReferenceDate")
            return false
        }
        return !interval.isFinite
    }
}
