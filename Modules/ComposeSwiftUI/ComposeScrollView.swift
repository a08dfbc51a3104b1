#if canImport(SwiftUI)
import Compose
import Foundation
import SwiftUI

/// A scroll view that tells a component when the end of its content comes into view: the "load
/// more" of a list (the original ComposeUI's `ComposeScrollView`).
///
/// ```swift
/// extension FeedComponent: View {
///     var body: some View {
///         ComposeScrollView(reachingEnd: loadMore, threshold: 300) {
///             LazyVStack {
///                 ForEach(state.posts) { post in PostRow(post) }
///             }
///         }
///     }
/// }
/// ```
///
/// `reachingEnd` is sent by `ScrollEndDetector`'s rule, as SwiftUI reports the scroll geometry
/// changing (`onScrollGeometryChange(for:of:action:)`): when the end comes within `threshold`
/// points of the visible area (content shorter than the view included); again when the content's
/// length changes while the end stays near (a page came that does not fill the view); not again
/// for content that stopped growing, until the user scrolls away and back.
@MainActor
public struct ComposeScrollView<Content: View>: View {
    let axis: Axis
    let showsIndicators: Bool
    let reachingEnd: SignalEmitter
    let content: Content
    @State private var detector: ScrollEndDetector

    /// A scroll view along `axis` that sends `reachingEnd` when its content's end comes within
    /// `threshold` points of the visible area.
    public init(
        _ axis: Axis = .vertical,
        showsIndicators: Bool = true,
        reachingEnd: SignalEmitter,
        threshold: Double = 0,
        @ViewBuilder content: () -> Content
    ) {
        self.axis = axis
        self.showsIndicators = showsIndicators
        self.reachingEnd = reachingEnd
        self.content = content()
        _detector = State(initialValue: ScrollEndDetector(threshold: threshold))
    }

    /// The scroll view, watching the geometry along its axis.
    public var body: some View {
        let axis = self.axis
        ScrollView(axis == .vertical ? .vertical : .horizontal, showsIndicators: showsIndicators) {
            content
        }
        .onScrollGeometryChange(for: EndGeometry.self) { geometry in
            EndGeometry(geometry, along: axis)
        } action: { _, geometry in
            if detector.update(contentLength: geometry.contentLength, visibleEnd: geometry.visibleEnd) {
                reachingEnd.send()
            }
        }
    }
}

/// The part of a scroll geometry that `ScrollEndDetector` reads, along one axis.
struct EndGeometry: Equatable {
    let contentLength: Double
    let visibleEnd: Double

    init(_ geometry: ScrollGeometry, along axis: Axis) {
        switch axis {
        case .vertical:
            contentLength = Double(geometry.contentSize.height)
            visibleEnd = Double(geometry.visibleRect.maxY)
        case .horizontal:
            contentLength = Double(geometry.contentSize.width)
            visibleEnd = Double(geometry.visibleRect.maxX)
        }
    }
}
#endif
