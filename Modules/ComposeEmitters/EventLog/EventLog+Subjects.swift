// The subject (`EventLog.Event.subject`) of the events an emitter records: its core, which
// records its sends.

extension ValueEmitter {
    /// The subject of this emitter's events in the event log.
    package var logSubject: ObjectIdentifier {
        ObjectIdentifier(core)
    }
}

extension SignalEmitter {
    /// The subject of this emitter's events in the event log.
    package var logSubject: ObjectIdentifier {
        ObjectIdentifier(core)
    }
}
