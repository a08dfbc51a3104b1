/// Entry points of the Swift runtime that the language does not spell.
@usableFromInline
package enum SwiftRuntime {
    /// The runtime's `swift_tryRetain` (`HeapObject *swift_tryRetain(HeapObject *)`): retains the
    /// object and returns it, or returns null without retaining if its deinitialization has
    /// begun. Looked up once and called with the C calling convention it is declared with.
    @usableFromInline package static let tryRetain: @convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? = {
        #if canImport(Darwin)
        let everywhere = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
        #else
        let everywhere: UnsafeMutableRawPointer? = nil  // RTLD_DEFAULT
        #endif
        guard let symbol = dlsym(everywhere, "swift_tryRetain") else {
            fatalError("Compose: the Swift runtime does not export swift_tryRetain")
        }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer?).self)
    }()
}
