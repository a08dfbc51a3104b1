// The C library of the platform, for every Compose module that needs a system call: importing
// ComposeMachinery brings it, so no module repeats the `#if canImport(Darwin) ... #endif`
// preamble.

import CComposeShims

#if canImport(Darwin)
@_exported import Darwin
#elseif canImport(Glibc)
@_exported import Glibc
#elseif canImport(Musl)
@_exported import Musl
#elseif canImport(Bionic)
@_exported import Bionic
#else
#error("Compose needs a C library with POSIX threads: Darwin, Glibc, Musl or Bionic.")
#endif

/// The identity of the current thread, never 0: `pthread_self()` as an integer, converted by
/// `CComposeShims` for whatever `pthread_t` the C library has.
@usableFromInline
package enum ThreadIdentity {
    @inlinable
    package static var current: UInt {
        UInt(compose_thread_identity())
    }
}
