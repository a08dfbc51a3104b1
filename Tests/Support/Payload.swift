import ComposeStore

/// The state the persistence crash and concurrency tests save, in this process and in
/// `ComposePersistenceCrashChild`: a marker saying which version it is, and filler so that a save
/// takes long enough to be interrupted.
public struct Payload: AnyState, Codable {
    public var marker = ""
    public var filler = ""

    public init() {}

    public init(marker: String, size: Int) {
        self.marker = marker
        self.filler = String(repeating: marker.first ?? "x", count: size)
    }
}
