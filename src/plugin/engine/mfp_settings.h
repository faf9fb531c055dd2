/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mfp_settings: the Priority* settings, the one object that the engine
 * reads and hands to the core.
 *
 * The weights, TRES, flags and limits that the core's formula takes are
 * the core's own mf_prio_config_t (`prio`), filled once per read of
 * slurm_conf; the engine passes it to the core as it is (mfp_jobs.c adds
 * only the cluster's live figures, which are not settings).  Around it,
 * what only the engine uses: the fair-share algorithm, decay, the state
 * directory, the metrics file.
 *
 * The object is immutable, read from slurm_conf at init and built anew at
 * each reconfigure, which then replaces the current one whole: no reader
 * ever sees one half written.  Readers hold the object they started with
 * for as long as they run: every engine function an entry point calls,
 * and each pass of the decay thread, opens a scope (mfp_conf_enter/leave,
 * nestable) that takes a reference to the current object; inside it,
 * `mfp_conf` is that object.  The last reference to a replaced object
 * frees it, so nothing accumulates over reconfigures.
 *
 * This is the lowest module of the engine: it calls nothing of the engine,
 * only the accessors (src/plugin/access/) and the core.  Nothing here
 * fails: a setting that cannot be used is logged and left out, as said.
 */
#ifndef MFPRIO_PLUGIN_MFP_SETTINGS_H
#define MFPRIO_PLUGIN_MFP_SETTINGS_H

#include <pthread.h>

#include "src/plugin/access/access.h"

#include "src/core/fairshare.h"
#include "src/core/priority.h"
#include "src/core/tres.h"

typedef struct {
	/* the core's settings: weights, PriorityWeightTRES by the positions
	 * of `tres` (xmalloc, or NULL), slurmctld's TRES (owned here),
	 * PriorityMaxAge, PriorityFavorSmall, PriorityFlags as MF_FLAG_*,
	 * the release; the cluster's live figures are left 0 */
	mf_prio_config_t prio;

	uint32_t slurm_flags;    /* slurm_conf.priority_flags */
	mf_fs_config_t fs;       /* algorithm and dampening */

	uint32_t half_life;      /* PriorityDecayHalfLife, seconds */
	double decay_factor;     /* per second, 1 without decay */
	uint32_t calc_period;    /* PriorityCalcPeriod, seconds */
	uint16_t reset_period;   /* PRIORITY_RESET_* */

	bool calc_fairshare;     /* false without slurmdbd or associations */
	char *state_dir;         /* StateSaveLocation (xstrdup): slurm_conf's
				  * string is freed by a reconfigure under
				  * slurmctld's conf lock, which the decay thread
				  * does not hold (a race TSan found) */
	char *cluster;           /* ClusterName (xstrdup), the same way */
	char *metrics_file;      /* PriorityParameters' mfprio_metrics_file
				  * (xstrdup), or NULL: no metrics file */

	int refs;                /* under the settings mutex */
} mfp_conf_t;

/* The settings in force for the calling thread: the object its innermost
 * scope holds (outside any scope, the current one; never NULL). */
const mfp_conf_t *mfp_conf_now(void);
#define mfp_conf (*mfp_conf_now())

/* Open / close a scope in the calling thread (nestable; the outermost
 * enter takes a reference to the current settings, its leave drops it). */
void mfp_conf_enter(void);
void mfp_conf_leave(void);

/*
 * Read the settings from slurm_conf (and slurmctld's TRES, under the
 * assoc_mgr TRES read lock taken inside) and make them the current ones.
 * CALC_FAIRSHARE: whether fair-share is computed at all.  NO_DBD_AT_START:
 * slurmctld starts without slurmdbd, where the age and fair-share weights
 * are dropped (as Slurm's own plugin does; like it, a later reconfigure
 * takes them from slurm.conf again).  Values that cannot mean what they
 * say are logged, one error line each.
 */
void mfp_settings_read(bool calc_fairshare, bool no_dbd_at_start);

/* In a client (sshare), where only the fair-share formula is used: the
 * defaults with slurm_conf's dampening factor become the current ones. */
void mfp_settings_client(void);

/* Back to the defaults (fini); a replaced object is freed by its last
 * reader. */
void mfp_settings_reset(void);

/* The classic fair-share factor 2^(-USAGE_EFCTV/SHARES_NORM/damp) with the
 * dampening factor in force; 0 for an effective usage Slurm marks as not
 * computed yet (NO_VAL). */
double mfp_calc_fs_factor(long double usage_efctv, long double shares_norm);

#endif
