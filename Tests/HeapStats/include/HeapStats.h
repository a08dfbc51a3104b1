#ifndef COMPOSE_HEAP_STATS_H
#define COMPOSE_HEAP_STATS_H

#include <stddef.h>

/// Bytes of heap the process has allocated and not yet freed, as the C allocator counts them
/// (glibc's `mallinfo2().uordblks`, Darwin's `mstats().bytes_used`); 0 where neither exists.
size_t compose_heap_bytes_in_use(void);

#endif
