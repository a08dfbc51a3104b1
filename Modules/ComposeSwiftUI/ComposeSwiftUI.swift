// ComposeSwiftUI: the original Compose's view API on SwiftUI, written on the public surface that
// `Tests/ReferenceAdapterTests` specifies. Compiled only where SwiftUI exists: on Linux this
// module is empty. `Scripts/check-swiftui` type-checks it here against a declaration-only
// stand-in of the SwiftUI API it uses (it has not run on an Apple platform in this repository's CI).
