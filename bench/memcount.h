/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * memcount: how many heap bytes a stretch of code takes, for the
 * benchmarks.
 *
 * Linking memcount.c into a program replaces malloc, calloc, realloc,
 * free and the aligned allocators with thin wrappers over glibc's own
 * (__libc_malloc ...) that keep a running total of the bytes in use and
 * its high-water mark.  GLib allocates through malloc (and g_slice through
 * posix_memalign), so the core's allocations are all counted.  A block
 * counts as malloc_usable_size() plus the 8 bytes of its chunk header: the
 * memory the process really gives it.
 *
 * Counting costs a call to malloc_usable_size() per allocation and per
 * free, so it is off until mc_count(true): time with it off, count in a
 * separate run.  A block freed while counting that was allocated while not
 * would be subtracted without having been added: count whole runs, over
 * blocks allocated in them (or mark after building what they free).
 *
 * Use: mc_mark() before the code; after it, mc_peak() is the most the
 * heap held above the mark meanwhile, mc_now() what it holds above the mark
 * now.  Single-threaded use only (plain counters, no atomics).
 *
 * Under AddressSanitizer (which owns malloc) the wrappers are left out and
 * mc_enabled() is false: callers print no figure rather than a wrong one.
 */
#ifndef MFPRIO_BENCH_MEMCOUNT_H
#define MFPRIO_BENCH_MEMCOUNT_H

#include <stdbool.h>
#include <stdint.h>

/* True if allocations are counted in this build. */
bool mc_enabled(void);

/* Count allocations from now on (ON) or stop counting. */
void mc_count(bool on);

/* Start a measurement: the current total becomes the mark and the peak. */
void mc_mark(void);

/* Highest total since mc_mark(), less the mark, in bytes. */
int64_t mc_peak(void);

/* Current total less the mark, in bytes (negative if more was freed). */
int64_t mc_now(void);

#endif
