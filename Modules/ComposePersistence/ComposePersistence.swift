// ComposePersistence
//
// State that survives restarts and crashes: `FilePersistentStorage(key:)`, atomic and durable
// saves, autosave, and `$state.persistence`.
//
// This module is a shell: it holds only this documentation until its issue (#5) fills it.
// It already has its product and its row in CONTRIBUTING.md's layering table, so the package's
// shape does not change when it does.
