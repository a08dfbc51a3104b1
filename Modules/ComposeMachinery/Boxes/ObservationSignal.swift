import Observation

/// Makes a read observable by Observation (`withObservationTracking`, SwiftUI) for a value that
/// lives elsewhere: the reader calls ``access()``, the writer calls ``changed()`` after a change.
///
/// The writer must call ``changed()`` without holding a lock: Observation calls its trackers'
/// `onChange` from inside it.
@usableFromInline
package final class ObservationSignal: Observable, Sendable {
    private let registrar = ObservationRegistrar()

    package init() {}

    /// Tells the current Observation tracking, if any, that the caller read the value.
    package func access() {
        registrar.access(self, keyPath: \.value)
    }

    /// Tells the trackers of the value that it changed.
    @usableFromInline
    package func changed() {
        registrar.withMutation(of: self, keyPath: \.value) {}
    }

    /// The key path Observation tracks; it carries no data.
    private var value: Void { () }
}
