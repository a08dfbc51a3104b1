// Compose: the umbrella module.
//
// `import Compose` gives every runtime module at once. Components and services live here
// (issue #7); depend on a single module instead (`ComposeEmitters`, `ComposeStore`, ...) when
// that is all you need.

@_exported import ComposeEmitters
@_exported import ComposePersistence
@_exported import ComposeRefs
@_exported import ComposeRouting
@_exported import ComposeStore
@_exported import ComposeValidation
