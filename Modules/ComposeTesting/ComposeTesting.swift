// ComposeTesting: the helpers an app's tests use.
//
// `import ComposeTesting` also gives `TestClock` (pointfreeco/swift-clocks), to drive
// `debounce`, `throttle`, `delay`, timers and autosave by hand.

@_exported import Clocks
