// ComposeValidation
//
// Declarative validation with field-level errors: `@ValidationBuilder`, `Validation`, `Field`,
// `ArrayField` and `Rule`. Depends on no other Compose module.
//
// This module is a shell: it holds only this documentation until its issue (#4) fills it.
// It already has its product and its row in CONTRIBUTING.md's layering table, so the package's
// shape does not change when it does.
