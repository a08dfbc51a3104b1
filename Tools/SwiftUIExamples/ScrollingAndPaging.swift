import Compose
import ComposeSwiftUI
import SwiftUI

// ComposeUI's scrolling and paging views, as an app writes them.

// MARK: A feed that loads more as its end comes into view

struct FeedComponent: Component, View {
    @Store var state: State
    let loadMore = SignalEmitter()

    struct State: AnyState {
        var posts: [String] = []
    }

    var observers: Void {
        loadMore += {
            let next = state.posts.count
            state.posts += (next..<next + 20).map { "Post \($0)" }
        }
    }

    var body: some View {
        ComposeScrollView(reachingEnd: loadMore, threshold: 300) {
            LazyVStack {
                ForEach(state.posts, id: \.self) { post in Text(post) }
            }
        }
    }
}

// MARK: A tutorial paged horizontally, its page kept in the store

struct TutorialComponent: Component, View {
    @Store var state: State

    struct State: AnyState {
        var steps = ["Welcome", "Routes", "Stores"]
        var step = 0
    }

    var observers: Void { None }

    var body: some View {
        ComposePagingView(pageCount: state.steps.count, page: $state.binding.step) { index in
            Text(state.steps[index])
        }
    }
}

/// Paged vertically, with a SwiftUI binding.
struct StoriesView: View {
    @State private var page = 0

    var body: some View {
        ComposePagingView(.vertical, pageCount: 5, page: $page) { index in
            Text("Story \(index + 1)")
        }
    }
}
