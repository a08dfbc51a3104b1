// ComposeRefs
//
// Identity-synchronised references: `@Ref`, `@RefCollection` and `Referred`.
//
// This module is a shell: it holds only this documentation until its issue (#6) fills it.
// It already has its product and its row in CONTRIBUTING.md's layering table, so the package's
// shape does not change when it does.
