/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * priority_flags: PriorityFlags of Slurm 22.05 and which fair-share
 * algorithm they select.
 */
#ifndef MFPRIO_PRIORITY_FLAGS_H
#define MFPRIO_PRIORITY_FLAGS_H

#include <stdint.h>

#include "fairshare.h"
#include "mf_error.h"

/* Our own bit values (not Slurm's); the plugin maps between them. */
#define MF_FLAG_ACCRUE_ALWAYS          (1u << 0)
#define MF_FLAG_CALCULATE_RUNNING      (1u << 1)
#define MF_FLAG_DEPTH_OBLIVIOUS        (1u << 2)
#define MF_FLAG_NO_FAIR_TREE           (1u << 3)
#define MF_FLAG_INCR_ONLY              (1u << 4)
#define MF_FLAG_MAX_TRES               (1u << 5)
#define MF_FLAG_NO_NORMAL_ASSOC        (1u << 6)
#define MF_FLAG_NO_NORMAL_PART         (1u << 7)
#define MF_FLAG_NO_NORMAL_QOS          (1u << 8)
#define MF_FLAG_NO_NORMAL_TRES         (1u << 9)
#define MF_FLAG_SMALL_RELATIVE_TO_TIME (1u << 10)
#define MF_FLAG_NO_NORMAL_ALL \
	(MF_FLAG_NO_NORMAL_ASSOC | MF_FLAG_NO_NORMAL_PART | \
	 MF_FLAG_NO_NORMAL_QOS | MF_FLAG_NO_NORMAL_TRES)

/*
 * Parse a comma-separated PriorityFlags value (case-insensitive; empty is
 * no flag).  Returns 0 with *flags set, or -1 with errp naming the first
 * unknown flag and *flags holding the known ones (slurmctld ignores what it
 * does not know; a caller may warn and go on).  FAIR_TREE is accepted (it
 * is the default).
 */
int mf_priority_flags_parse(const char *s, uint32_t *flags,
			    mf_error_t *errp);

/* Comma-separated names of FLAGS ("" for none); caller frees. */
char *mf_priority_flags_string(uint32_t flags);

/* The algorithm 22.05 uses: DEPTH_OBLIVIOUS, else NO_FAIR_TREE -> classic,
 * else Fair Tree. */
mf_fs_algo_t mf_priority_flags_algo(uint32_t flags);

#endif
