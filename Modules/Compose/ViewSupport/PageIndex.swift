/// Which page a paging view shows for a page index that may not exist: the rule ComposeSwiftUI's
/// `ComposePagingView` follows, for any view layer.
public enum PageIndex {
    /// The page to show for `requested` among `pageCount` pages: `requested` itself when it
    /// exists, otherwise the nearest page (the first for a negative index, the last past the
    /// end, as after pages were removed); `nil` when there are no pages (a `pageCount` of zero or
    /// less).
    public static func shown(_ requested: Int, pageCount: Int) -> Int? {
        guard pageCount > 0 else { return nil }
        return min(max(requested, 0), pageCount - 1)
    }
}
