import ComposeEmitters
import ComposeMachinery
import Observation
import Synchronization

// Notices: posting a commit's notice under the lock, and delivering it after (collecting the
// observers of what changed, then calling them and the change emitters).

extension StoreStorage {
    /// Hands the notice of a commit to the notifier. Called under the lock, which orders
    /// notices: if nobody delivers and nothing waits, takes the notifier's role and, in the same
    /// hold of the lock, collects the notice's observers (the first half of ``deliver(_:)``),
    /// keeping the notice for this thread to deliver after the lock, without queueing anything,
    /// and returns `true`; otherwise queues the notice and returns `false`. Either way, call
    /// ``deliverPosted(tookTheRole:)`` after the lock.
    @inlinable
    func post(_ changes: ChangedWords, states: States?, in core: inout Core) -> Bool {
        if let states, states.referencedValues.isEmpty, capturesReferencedValues {
            states.referencedValues = captureReferencedValues(&core)
        }
        return withNotifier { notifier in
            guard notifier.takeTheRoleIfIdle() else {
                notifier.enqueue(Notice(changes: changes, states: states))
                return false
            }
            // The relay keeps the notice for this thread (see `Relay.taken`), made where it
            // goes: nothing is carried through the lock and back, or copied on the way.
            let filled = collect(changes, in: &core)
            notifier.keepTaken(Notice(changes: changes, states: states, filledSnapshot: filled))
            return true
        }
    }

    /// After the lock: delivers the notice ``post(_:states:in:)`` took on (then whatever was queued
    /// meanwhile), or, if it queued it, has the queue delivered unless somebody is delivering it.
    @inlinable
    func deliverPosted(tookTheRole: Bool) {
        // What observers do is a consequence of the write (see `EventLog.Event.isConsequence`).
        EventLog.asConsequence {
            withNotifier { notifier in
                if tookTheRole {
                    notifier.handleTaken { notice in deliverCollected(notice, filledSnapshot: notice.filledSnapshot) }
                } else {
                    notifier.drain()
                }
            }
        }
    }

    /// Delivers one notice. Runs on the notifier, one notice at a time, without the lock.
    @inlinable
    func deliver(_ notice: Notice) {
        let filled = core.withLock { collect(notice.changes, in: &$0) }
        deliverCollected(notice, filledSnapshot: filled)
    }

    /// The first half of delivering a notice, under the lock, by the holder of the notifier's
    /// role: collects the observers of `changes` into ``collected``, having captured their
    /// values from the state; if an observer without offsets needs it, copies the state into
    /// ``snapshot`` and returns `true`.
    @inlinable
    func collect(_ changes: ChangedWords, in core: inout Core) -> Bool {
        // Copied for observers without offsets only, into the notifier's reusable slot (empty
        // here, so filling it under the lock releases nothing).
        let needsSnapshot = withUnsafeBytes(of: &core.state) { storage in
            core.registry.collect(changes, storage: storage.baseAddress!, into: &collected)
        }
        guard needsSnapshot else { return false }
        let slot: UnsafeMutablePointer<State>
        if let made = snapshot {
            slot = made
        } else {
            slot = .allocate(capacity: 1)
            snapshot = slot
        }
        slot.initialize(to: core.state)
        return true
    }

    /// The second half of delivering a notice, without the lock: the observers collected by
    /// ``collect(_:in:)`` read the snapshot if they need it and fire, in subscription order;
    /// then the rest of the store hears of the commit.
    @inlinable
    func deliverCollected(_ notice: Notice, filledSnapshot: Bool) {
        // The buffer belongs to the notifier, which never runs twice at once: sort it in place
        // (subscription order) and iterate it without copying, so a notice allocates nothing.
        if collected.count > 1 { collected.sort { $0.id < $1.id } }
        // One pass: an observer without offsets reads the snapshot just before it fires. A
        // handler cannot change the snapshot (a commit it makes finds the role taken and is
        // queued), so every observer reads the same state; what a key path reads through a
        // `@Ref` is the entity's current value, as it always was.
        let slot = filledSnapshot ? snapshot : nil
        for observer in collected {
            if let slot, !observer.words.isIndexed { observer.captureFromState(slot.pointee) }
            if !observer.isCancelled { observer.fire() }
        }
        // Emptied without the lock: the copy's references are released here.
        slot?.deinitialize(count: 1)
        // One at a time: `removeAll(keepingCapacity:)` goes through `replaceSubrange`, several
        // times the cost for the one or few observers a notice usually collects.
        while !collected.isEmpty { collected.removeLast() }
        guard !notice.isRefresh else { return }
        if reportsWholeState.load(ordering: .relaxed) { reportWholeStateChange() }
        // The change emitters hear of values that changed, not of bytes: a commit whose states
        // are equal is heard by nobody else. (Whoever listens makes the commit keep its states.)
        guard let erased = notice.states else { return }
        let states = unsafeDowncast(erased, to: States.self)
        guard states.valueChanged else { return }
        if let changed = lazyChanged.ifMade, changed.hasSubscribers { changed.send(()) }
        lazyWillChange.ifMade?.send(states.new)
        lazyDidChange.ifMade?.send(StateChange(old: states.old, new: states.new, referencedValues: states.referencedValues))
        if EventLog.isRecording(.mutation) { logMutation(old: states.old, new: states.new, keyPath: states.keyPath) }
    }
}
