// Compose: the umbrella module.
//
// `import Compose` gives every runtime module at once, and adds components (`Component`,
// `RouterComponent`, `DynamicComponent`, `InstanceComponent`, `@EnclosingRouter`), the headless
// `ComponentHost` that runs a tree of them, and `Services`. Depend on a single module instead
// (`ComposeEmitters`, `ComposeStore`, ...) when that is all you need.

@_exported import ComposeEmitters
@_exported import ComposePersistence
@_exported import ComposeRefs
@_exported import ComposeRouting
@_exported import ComposeStore
@_exported import ComposeValidation
