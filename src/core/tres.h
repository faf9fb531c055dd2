/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tres: the trackable resources (TRES) of a cluster, as Slurm 22.05 names
 * and counts them, and the "TYPE[/NAME]=VALUE,..." strings that carry them:
 * PriorityWeightTRES, TRESBillingWeights (weights with unit suffixes) and a
 * job's TRES= field in `scontrol show job` (counts with unit suffixes).
 *
 * A TRES set (mf_tres_set_t) is an ordered list of lower-case names; every
 * TRES array of the core (a job's counts, a partition's totals, weights,
 * factors) is indexed by position in that set.  The first eight positions
 * are Slurm's fixed ones:
 *
 *   0 cpu  1 mem  2 energy  3 node  4 billing  5 fs/disk  6 vmem  7 pages
 *
 * followed by the cluster's other TRES (AccountingStorageTRES: gres/gpu,
 * license/foo, bb/cray ...), in the order they were added.
 *
 * Units: "mem" and "bb" counts are in megabytes; everything else is a plain
 * count.  A suffix K, M, G, T or P (only its first letter counts, any case)
 * scales a count up from the TRES's base unit (mem=2G is 2048) and a weight
 * down (PriorityWeightTRES=Mem=1000G is 1000 per GiB: 1000/1024 per MB), as
 * Slurm does; a suffix at or below the base unit (mem=100M, mem=1K) scales
 * nothing.
 *
 * Ownership: the set owns its names.
 */
#ifndef MFPRIO_TRES_H
#define MFPRIO_TRES_H

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>

#include "mf_error.h"

/* Positions of Slurm's fixed TRES. */
enum {
	MF_TRES_CPU = 0,
	MF_TRES_MEM = 1,
	MF_TRES_ENERGY = 2,
	MF_TRES_NODE = 3,
	MF_TRES_BILLING = 4,
	MF_TRES_FS_DISK = 5,
	MF_TRES_VMEM = 6,
	MF_TRES_PAGES = 7,
	MF_TRES_FIXED_CNT = 8,
};

/* A count that a job does not consume (Slurm's NO_CONSUME_VAL64). */
#define MF_TRES_NO_CONSUME 0xfffffffffffffffdULL

typedef struct {
	uint32_t cnt;            /* number of TRES */
	char **names;            /* cnt lower-case names, "gres/gpu" form */
} mf_tres_set_t;

/* A new set holding the eight fixed TRES.  Never NULL. */
mf_tres_set_t *mf_tres_set_create(void);

/* Free; NULL is accepted. */
void mf_tres_set_free(mf_tres_set_t *set);

/*
 * The position of NAME ("GRES/gpu" and "gres/gpu" are the same; "gres:gpu"
 * is accepted too), or -1.
 */
int mf_tres_find(const mf_tres_set_t *set, const char *name);

/*
 * The position of NAME, adding it at the end when absent.  Returns the
 * position, or -1 with errp filled for an empty name.
 */
int mf_tres_add(mf_tres_set_t *set, const char *name, mf_error_t *errp);

/* True if the TRES at POS is counted per node for MAX_TRES billing (cpu,
 * mem, node and every gres/...); false for the global ones. */
bool mf_tres_is_node_type(const mf_tres_set_t *set, uint32_t pos);

/*
 * Parse a weight list "TYPE[/NAME]=W[unit],..." (PriorityWeightTRES,
 * TRESBillingWeights) into WEIGHTS (set->cnt doubles, zeroed first).
 * Every TYPE must be in SET.  Returns 0, or -1 with errp naming the entry
 * (no '=', empty or non-numeric weight, unknown unit, TRES not in the set);
 * WEIGHTS is then all zero.
 */
int mf_tres_weights_parse(const mf_tres_set_t *set, const char *s,
			  double *weights, mf_error_t *errp);

/*
 * PriorityWeightTRES: as mf_tres_weights_parse(), and a negative weight is
 * an error too ("the weight of cpu is negative").
 * Returns 0, or -1 with errp filled and WEIGHTS all zero.
 */
int mf_tres_priority_weights_parse(const mf_tres_set_t *set, const char *s,
				   double *weights, mf_error_t *errp);

/*
 * Parse a count list "TYPE[/NAME]=N[unit],..." (scontrol's TRES= field)
 * into COUNTS (set->cnt values, zeroed first).  A TRES not in SET is
 * skipped and its name appended to UNKNOWN (a GPtrArray of g_malloc'd
 * strings) when UNKNOWN is not NULL, else it is an error.  Returns 0, or
 * -1 with errp naming the bad entry (no '=', not a count, unknown unit).
 */
int mf_tres_counts_parse(const mf_tres_set_t *set, const char *s,
			 uint64_t *counts, GPtrArray *unknown,
			 mf_error_t *errp);

#endif
