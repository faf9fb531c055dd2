/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check_findings: what `mfprio check` finds in the priority settings of a
 * run (priority_run.h), each finding with its numbers and a fix.
 *
 * Findings, in this order:
 *   overflow      the weights' sum is above 2^32-1: jobs with high
 *                 factors are clamped to the same priority
 *   fs-weight     PriorityWeightFairshare below the number of user
 *                 associations: the factor's steps are lost in rounding
 *   saturated     every pending job's age factor is 1 (all waited
 *                 PriorityMaxAge or more)
 *   constant      a weighted factor is the same for every pending job
 *   tres-unused   a PriorityWeightTRES entry for a TRES no pending job asks
 *   off           weights or settings the configuration turns off: every
 *                 weight under PriorityType other than priority/multifactor,
 *                 age and fair-share weights without slurmdbd
 *                 (AccountingStorageType), FairShareDampeningFactor under
 *                 Fair Tree
 */
#ifndef MFPRIO_CHECK_FINDINGS_H
#define MFPRIO_CHECK_FINDINGS_H

#include <glib.h>

#include "priority_run.h"

typedef struct {
	const char *kind;        /* overflow, fs-weight, ... (static) */
	char *what;              /* the finding, with its numbers, no final
				  * full stop */
	char *fix;               /* what to change, the same */
} mf_finding_t;

/* The findings of run C, made with options O: a new array of mf_finding_t
 * (empty when nothing was found; free with g_array_unref, which frees the
 * strings too). */
GArray *mf_check_findings(const mf_prun_ctx_t *c, const mf_prun_opts_t *o);

#endif
