/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * settings: the settings every command runs with, read in one place from
 * the inputs the options name: slurm.conf (with its Includes) and the
 * what-ifs written after its last line (--set, --flags, --damp), read by
 * priority_conf.h's one table of the Priority* keys and their defaults;
 * the Slurm release imitated (--release, else what the conf or the
 * version file beside it says: slurm_release.h, decided here and nowhere
 * else); the cluster of a several-cluster assoc dump (--cluster, else the
 * conf's ClusterName).
 *
 * Ownership: an mf_settings_t owns everything in it (mf_settings_clear());
 * an mf_settings_in_t's strings are borrowed.
 */
#ifndef MFPRIO_SETTINGS_H
#define MFPRIO_SETTINGS_H

#include <stdbool.h>

#include "mf_error.h"
#include "priority_conf.h"
#include "slurm_conf.h"
#include "slurm_release.h"

/* What the settings are read from. */
typedef struct {
	const char *conf;            /* slurm.conf; NULL: none (no setting) */
	const GPtrArray *sets;       /* mf_conf_pair_t*, the what-ifs in
				      * order; NULL: none */
	const mf_release_pick_t *release;  /* --release (its source set), or
					   * NULL */
	const char *cluster;         /* --cluster, or NULL */
	const char *near;            /* without a conf: a file whose
				      * directory may hold the version file
				      * (the assoc dump), or NULL */
} mf_settings_in_t;

typedef struct {
	mf_conf_t *conf;             /* the conf read, the what-ifs after it:
				      * its other keys (ClusterName,
				      * AccountingStorageEnforce, ...) */
	bool conf_empty;             /* the file held nothing at all */
	mf_prio_conf_t *pc;          /* the settings, defaults filled */
	mf_release_pick_t rel;        /* the release imitated, and why */
	char *cluster;               /* NULL: the dump's only cluster */
} mf_settings_t;

/*
 * Read S (zeroed) from IN.  Returns 0, or -1 with ERRP set when the conf
 * cannot be read.  A bad value is no error: it is in S->pc's warnings
 * (mf_settings_warn()), its default used.  Clear S either way.
 */
int mf_settings_read(mf_settings_t *s, const mf_settings_in_t *in,
		     mf_error_t *errp);

/* Which of the warnings mf_settings_warn() prints. */
typedef enum {
	MF_SETTINGS_WARN_ALL,        /* every one */
	MF_SETTINGS_WARN_SETS,       /* those of the what-ifs only (a second
				      * run over the same conf) */
	MF_SETTINGS_WARN_FS,         /* the conf reader's and those of the
				      * fair-share settings (PriorityFlags,
				      * FairShareDampeningFactor) */
} mf_settings_warn_t;

/* Print S's warnings of kind WHICH to stderr ("mfprio: warning: ...").
 * Returns nothing. */
void mf_settings_warn(const mf_settings_t *s, mf_settings_warn_t which);

void mf_settings_clear(mf_settings_t *s);

#endif
