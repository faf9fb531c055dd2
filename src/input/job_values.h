/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * job_values: the values of scontrol's job lines: its times (local
 * "YYYY-MM-DDTHH:MM:SS", or seconds since the epoch; "Unknown", "None"
 * and "N/A" are 0), whole numbers and ranges.
 */
#ifndef MFPRIO_JOB_VALUES_H
#define MFPRIO_JOB_VALUES_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* Parse scontrol's time TEXT ("Unknown" etc. give 0).  Returns 0 or -1. */
int mf_parse_slurm_time(const char *text, time_t *out);

/* The N bytes at S, all digits (at least one), as a number within MAX
 * into *OUT.  Returns 0 or -1. */
int mf_jv_uint_n(const char *s, size_t n, uint64_t max, uint64_t *out);

/* A whole number (digits only) into *OUT within MAX.  Returns 0 or -1. */
int mf_jv_uint(const char *s, uint64_t max, uint64_t *out);

/* A signed whole number into *OUT.  Returns 0 or -1. */
int mf_jv_int(const char *s, int64_t *out);

/* "N" or "N-M" into LO and HI (0 when no range).  Returns 0 or -1. */
int mf_jv_range(const char *s, uint32_t *lo, uint32_t *hi);

#endif
