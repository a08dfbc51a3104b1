extension EmitterCore {
    /// A private core that funnels events from several sources (two upstreams, a timer task)
    /// into one handler, one event at a time, in arrival order.
    ///
    /// Operators with more than one input register their state machine as the relay's only
    /// handler, so the state machine needs no lock and the downstream handler keeps the
    /// "never concurrently with itself" promise. Inside that handler, capture the relay weakly:
    /// the relay owns the handler.
    package static func relay() -> EmitterCore<Value> {
        EmitterCore(label: nil, remembersValues: false, isLogged: false)
    }
}
