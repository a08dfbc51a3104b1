// ComposeTesting
//
// The helpers users put in their own tests: a store tester, recording emitters, test clocks,
// failing storages, headless component trees and leak checks.
//
// This module is a shell: it holds only this documentation until its issue (#9) fills it.
// It already has its product and its row in CONTRIBUTING.md's layering table, so the package's
// shape does not change when it does.
