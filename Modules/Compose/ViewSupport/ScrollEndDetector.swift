/// Decides when a scrolling view says it reached the end of its content: what a "load more" list
/// needs, for any view layer (ComposeSwiftUI's `ComposeScrollView` is built on it).
///
/// Feed it the geometry along the scrolling axis each time it changes; it answers whether to
/// send now. The end is near when the far edge of the visible area is within `threshold` points
/// of the content's end, or past it (content shorter than the view). It answers `true`:
/// - when the end comes near (scrolling to it, or the first geometry of short content);
/// - while the end stays near, when the content's length changes (more content loaded, and it
///   still does not fill the view, or a reload shortened it): the view asks again;
///
/// and never twice for the same approach to the same content: content that stops growing (the
/// last page) is not asked for again until the user scrolls away and back.
///
/// ```swift
/// var detector = ScrollEndDetector(threshold: 200)
/// if detector.update(contentLength: 1_000, visibleEnd: 850) { loadMore.send() }  // near: sends
/// ```
///
/// A length or position that is not finite (NaN, infinity), or a negative length, is ignored: the
/// answer is `false` and nothing changes.
public struct ScrollEndDetector: Sendable, Equatable {
    /// How close, in points, the visible area's far edge must come to the content's end. A
    /// negative or non-finite value, given here or to the initializer, counts as 0.
    public var threshold: Double {
        get { storedThreshold }
        set { storedThreshold = newValue.isFinite ? max(0, newValue) : 0 }
    }
    private var storedThreshold = 0.0
    private var isNear = false
    /// The content's length when the detector last answered `true`.
    private var lengthWhenSent: Double?

    /// A detector that answers when the end is within `threshold` points (negative: counted as 0).
    public init(threshold: Double = 0) {
        self.threshold = threshold
    }

    /// Takes the geometry after a change; returns whether the view should say it reached the end.
    ///
    /// - Parameters:
    ///   - contentLength: The content's length along the scrolling axis.
    ///   - visibleEnd: Where the visible area ends along that axis, in the content's coordinates
    ///     (the content offset plus the visible length).
    public mutating func update(contentLength: Double, visibleEnd: Double) -> Bool {
        guard contentLength.isFinite, visibleEnd.isFinite, contentLength >= 0 else { return false }
        let near = visibleEnd >= contentLength - threshold
        defer { isNear = near }
        guard near, !isNear || contentLength != lengthWhenSent else { return false }
        lengthWhenSent = contentLength
        return true
    }
}
