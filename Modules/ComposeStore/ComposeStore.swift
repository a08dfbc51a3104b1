// ComposeStore
//
// The reactive store: `@Store var state`, keypath-level change detection, StatusSet and
// Async values, Cyanic's setState/withState ordering, and Observation support.
//
// This module is a shell: it holds only this documentation until its issue (#3) fills it.
// It already has its product and its row in CONTRIBUTING.md's layering table, so the package's
// shape does not change when it does.
