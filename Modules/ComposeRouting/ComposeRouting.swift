// ComposeRouting
//
// Routers, routing paths and deep links.
//
// This module is a shell: it holds only this documentation until its issue (#7 and #8) fills it.
// It already has its product and its row in CONTRIBUTING.md's layering table, so the package's
// shape does not change when it does.
