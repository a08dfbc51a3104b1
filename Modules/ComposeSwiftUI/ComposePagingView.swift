#if canImport(SwiftUI)
import Compose
import Foundation
import SwiftUI

/// Pages through content one page at a time, horizontally or vertically (the original
/// ComposeUI's `ComposePagingView`), on SwiftUI's paging scroll behaviour.
///
/// ```swift
/// extension TutorialComponent: View {
///     var body: some View {
///         ComposePagingView(pageCount: state.steps.count, page: $state.binding.step) { index in
///             StepView(state.steps[index])
///         }
///     }
/// }
/// ```
///
/// Each page fills the view along its axis (`containerRelativeFrame`), the stack of pages is the
/// scroll target layout, and the scroll view settles on page boundaries (`.paging`). `page`
/// follows the page scrolled to (`scrollPosition(id:)`), and setting it scrolls there. An index
/// that names no page (negative, or past the last after pages were removed) shows the nearest
/// page, by `PageIndex`'s rule; the binding keeps its value until the user scrolls.
@MainActor
public struct ComposePagingView<Page: View>: View {
    let axis: Axis
    let pageCount: Int
    let page: Binding<Int>
    let content: (Int) -> Page

    /// Pages `0..<pageCount` along `axis`, the one shown bound to `page`.
    public init(
        _ axis: Axis = .horizontal,
        pageCount: Int,
        page: Binding<Int>,
        @ViewBuilder content: @escaping (Int) -> Page
    ) {
        self.axis = axis
        self.pageCount = pageCount
        self.page = page
        self.content = content
    }

    /// Pages bound to a store's value: `page: $state.binding.step`.
    public init<State>(
        _ axis: Axis = .horizontal,
        pageCount: Int,
        page: StoreBinding<State, Int>,
        @ViewBuilder content: @escaping (Int) -> Page
    ) {
        self.init(axis, pageCount: pageCount, page: Binding(page), content: content)
    }

    /// The pages in a paging scroll view.
    public var body: some View {
        ScrollView(axis == .horizontal ? .horizontal : .vertical, showsIndicators: false) {
            pages.scrollTargetLayout()
        }
        .scrollTargetBehavior(.paging)
        .scrollPosition(id: position)
    }

    @ViewBuilder
    private var pages: some View {
        let indices = Array(0..<max(pageCount, 0))
        let axes: Axis.Set = axis == .horizontal ? .horizontal : .vertical
        if axis == .horizontal {
            LazyHStack(spacing: 0) {
                ForEach(indices, id: \.self) { index in content(index).containerRelativeFrame(axes) }
            }
        } else {
            LazyVStack(spacing: 0) {
                ForEach(indices, id: \.self) { index in content(index).containerRelativeFrame(axes) }
            }
        }
    }

    /// The scroll position as a page index: the page shown for `page`, and the page scrolled to.
    private var position: Binding<Int?> {
        let page = self.page
        let pageCount = self.pageCount
        return Binding(
            get: { PageIndex.shown(page.wrappedValue, pageCount: pageCount) },
            set: { scrolledTo in
                if let scrolledTo { page.wrappedValue = scrolledTo }
            })
    }
}
#endif
