// What Compose needs from the Swift runtime and the C library that Swift does not spell, declared
// once. Swift code calls these; nothing is looked up at run time (`dlsym` cannot see a statically
// linked runtime), so an executable built with `--static-swift-stdlib` works too.
//
// Every function is `static inline`: the compiler inlines it into the Swift caller, so a call
// costs what the call it wraps costs.

#ifndef C_COMPOSE_SHIMS_H
#define C_COMPOSE_SHIMS_H

#include <stdbool.h>
#include <stdint.h>
#include <pthread.h>

#if defined(__APPLE__)
#else
#include <sys/syscall.h>
#include <unistd.h>
#endif

// The Swift runtime's `HeapObject *swift_tryRetain(HeapObject *object)` (swift/Runtime/HeapObject.h,
// exported with the C calling convention): retains the object and returns it, or returns null
// without retaining it if its deinitialization has begun. It is the test a load of a `weak`
// reference makes. `ComposeMachinery`'s `SwiftRuntime` is its only caller.
extern void *_Nullable swift_tryRetain(void *_Nonnull object);

/// `swift_tryRetain`, for Swift.
static inline void *_Nullable compose_try_retain(void *_Nonnull object) {
    return swift_tryRetain(object);
}

/// The identity of the calling thread, never 0: `pthread_self()` as an integer, whatever the C
/// library's `pthread_t` is (an integer in glibc, a pointer in musl, Bionic and Darwin).
static inline uintptr_t compose_thread_identity(void) {
    return (uintptr_t)pthread_self();
}

/// Whether the calling thread is the process's main thread: `pthread_main_np()` on Apple
/// platforms; elsewhere, whether the thread's kernel id equals the process id, which is true of
/// the main thread only (the `gettid` system call, which every Linux kernel has, whatever the C
/// library exports).
static inline bool compose_is_main_thread(void) {
#if defined(__APPLE__)
    return pthread_main_np() != 0;
#else
    return (pid_t)syscall(SYS_gettid) == getpid();
#endif
}

#endif
