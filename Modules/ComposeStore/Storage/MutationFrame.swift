import ComposeMachinery

/// The `mutate` bodies running on the current thread, innermost first: a store's, and an
/// entity's (`Referred.mutate`).
///
/// While a `mutate` body runs, every read and write of the same store (or entity) on the same
/// thread goes to the body's working copy: a nested `mutate`, a write through the wrapper, a read. Nested
/// changes become part of the outer batch, and the outer commit cannot be invalidated by the
/// thread's own writes (which, with optimistic commits, would retry forever).
///
/// Frames live on the stack of `mutate`; the thread-local slot holds a pointer to the innermost.
@usableFromInline
package struct MutationFrame {
    @usableFromInline let store: ObjectIdentifier
    @usableFromInline let state: UnsafeMutableRawPointer
    @usableFromInline let outer: UnsafeMutableRawPointer?

    @inlinable
    init(store: ObjectIdentifier, state: UnsafeMutableRawPointer, outer: UnsafeMutableRawPointer?) {
        self.store = store
        self.state = state
        self.outer = outer
    }

    @usableFromInline
    static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "pthread_key_create failed: \(status)")
        return key
    }()

    /// The working copy of `store`'s state if a `mutate` body of that store is running on this
    /// thread.
    @inlinable
    package static func workingCopy(of store: AnyObject) -> UnsafeMutableRawPointer? {
        guard var frame = pthread_getspecific(key) else { return nil }
        let identity = ObjectIdentifier(store)
        while true {
            let current = frame.assumingMemoryBound(to: MutationFrame.self).pointee
            if current.store == identity { return current.state }
            guard let outer = current.outer else { return nil }
            frame = outer
        }
    }

    /// Runs a nested `mutate`'s `body` on the outer body's working copy, `state`: its changes
    /// join the outer run, and if it throws they are undone, so a throwing body changes nothing,
    /// nested too.
    ///
    /// - Complexity: A copy of the state, kept to undo with; it shares the working copy's
    ///   buffers, so the body's first write to an array or dictionary of the state copies that
    ///   buffer.
    @inlinable
    package static func joining<State, Result>(
        _ state: UnsafeMutableRawPointer,
        as type: State.Type,
        _ body: (inout State) throws -> Result
    ) rethrows -> Result {
        let working = state.assumingMemoryBound(to: State.self)
        let before = working.pointee
        do {
            return try body(&working.pointee)
        } catch {
            working.pointee = before
            throw error
        }
    }

    /// Runs `body` with `state` registered as `store`'s working copy on this thread.
    @inlinable
    package static func with<Result>(
        _ store: AnyObject,
        workingCopy state: UnsafeMutableRawPointer,
        _ body: () throws -> Result
    ) rethrows -> Result {
        let outer = pthread_getspecific(key)
        var frame = MutationFrame(store: ObjectIdentifier(store), state: state, outer: outer)
        return try withUnsafeMutablePointer(to: &frame) { pointer in
            pthread_setspecific(key, UnsafeRawPointer(pointer))
            defer { pthread_setspecific(key, outer.map { UnsafeRawPointer($0) }) }
            return try body()
        }
    }
}
