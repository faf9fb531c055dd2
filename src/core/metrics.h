/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * metrics: fair-share figures in Prometheus's text exposition format
 * (version 0.0.4), the one formatter of the plugin's metrics file and of
 * `mfprio metrics`.
 *
 * The caller fills plain records (no Slurm type, no pointer into anybody's
 * live structures: strings it owns for the duration of the call) and asks
 * for text; the plugin collects them under slurmctld's locks and formats
 * after releasing every lock.  Families (all gauges unless named _total):
 *
 *   per association, labels cluster, account, user, partition, parent,
 *   depth (user and partition "" for an account and for no partition;
 *   parent "" for root; a label with the value "" is the same as no label
 *   to Prometheus, so it is left out of the line):
 *     mfprio_assoc_shares                raw shares (not for root nor for
 *                                        FairShare=parent)
 *     mfprio_assoc_shares_norm_ratio     normalized shares
 *     mfprio_assoc_usage_raw_seconds     raw usage: decayed billing-
 *                                        weighted TRES-seconds
 *     mfprio_assoc_usage_effective_ratio effective usage
 *     mfprio_assoc_fairshare_ratio       the fair-share factor
 *     mfprio_assoc_level_fairshare       Fair Tree's level fair-share
 *                                        (+Inf when no usage)
 *   per association and partition (labels cluster, account, user,
 *   partition), the pending jobs sprio lists:
 *     mfprio_pending_jobs                how many
 *     mfprio_pending_priority_summed     their priorities added up
 *     mfprio_pending_priority_highest    the highest
 *     mfprio_pending_oldest_wait_seconds how long the one submitted first
 *                                        has waited
 *     mfprio_pending_oldest_priority     its priority there
 *   the plugin's cycle (label cluster; mfprio_stats's figures):
 *     mfprio_cycle_timestamp_seconds, mfprio_cycle_wall_seconds,
 *     mfprio_cycle_cpu_seconds, mfprio_cycle_job_lock_seconds{phase},
 *     mfprio_cycle_job_lock_holds{phase}, mfprio_cycle_job_lock_longest_seconds,
 *     mfprio_cycle_assoc_lock_seconds, mfprio_cycle_jobs{state},
 *     mfprio_cycle_fairshare_tree_built, mfprio_metrics_collect_lock_seconds,
 *     mfprio_metrics_write_seconds, mfprio_metrics_handoff_seconds, and the
 *     counters mfprio_metrics_skipped_total, mfprio_cycles_total,
 *     mfprio_job_lock_seconds_total, mfprio_thread_cpu_seconds_total,
 *     mfprio_fairshare_tree_builds_total, with the gauge
 *     mfprio_job_lock_longest_seconds_max
 *   always:
 *     mfprio_metrics_info{cluster,source,algorithm} 1
 *     mfprio_metrics_timestamp_seconds   when the figures were taken
 *
 * A value NAN is an unset figure (sshare's empty field): its line is left
 * out.  Numbers keep at least 12 significant digits.
 */
#ifndef MFPRIO_METRICS_H
#define MFPRIO_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <glib.h>

#include "mf_error.h"

/* mf_metrics_assoc_t.shares_raw of an association with no raw shares to
 * show (root, FairShare=parent). */
#define MF_METRICS_NO_SHARES UINT32_MAX

typedef struct {
	const char *account;     /* never NULL */
	const char *user;        /* NULL or "": an account */
	const char *partition;   /* NULL or "": no partition */
	const char *parent;      /* NULL or "": root */
	int depth;               /* root 0, as sshare indents */
	uint32_t shares_raw;     /* or MF_METRICS_NO_SHARES */
	double shares_norm;      /* NAN: unset, left out (as all below) */
	double usage_raw;
	double usage_efctv;
	double fs_factor;
	double level_fs;
} mf_metrics_assoc_t;

typedef struct {
	const char *account;     /* never NULL */
	const char *user;        /* never NULL */
	const char *partition;   /* NULL or "": none */
	uint32_t jobs;
	double prio_sum;
	double prio_max;
	double oldest_wait;      /* seconds since the first-submitted job's
				  * submission (NAN: not known, left out) */
	double oldest_prio;      /* that job's priority in the partition */
} mf_metrics_pending_t;

typedef struct {
	double start;            /* the cycle's time, Unix seconds */
	double wall_s, cpu_s;
	double lock_charge_s, lock_prio_s, lock_longest_s;
	uint32_t charge_holds, prio_holds;
	double assoc_lock_s;
	bool tree_built;
	uint32_t jobs_total, jobs_recomputed, jobs_changed, jobs_skipped;
	double collect_lock_s;   /* locks held to collect these figures */
	double write_s;          /* formatting and writing the previous file
				  * (NAN: none yet) */
	double handoff_s;        /* the decay thread's share of the previous
				  * file: handing it to the writer (NAN: none
				  * yet) */
	uint64_t skipped;        /* files not written because the writer was
				  * still busy with the one before */
	uint64_t cycles, tree_builds;
	double lock_total_s, cpu_total_s, lock_max_s;
} mf_metrics_cycle_t;

typedef struct {
	const char *cluster;     /* NULL: "" */
	const char *source;      /* "plugin", "snapshot", "live" */
	const char *algorithm;   /* the fair-share algorithm's name */
	double timestamp;        /* when the figures hold, Unix seconds */
	const mf_metrics_assoc_t *assocs;
	size_t n_assocs;
	const mf_metrics_pending_t *pending;
	size_t n_pending;
	const mf_metrics_cycle_t *cycle;   /* NULL: no cycle families */
} mf_metrics_t;

/* Append M as exposition text to OUT (not cleared first). */
void mf_metrics_format(GString *out, const mf_metrics_t *m);

/*
 * Write M to PATH atomically: formatted straight into PATH.tmp in the same
 * directory through a 1 MiB buffer (whatever the site's size, no copy of
 * the whole text is held), mode 0644 for a collector running as another
 * user, then swapped with PATH (renameat2 RENAME_EXCHANGE; a plain rename
 * when PATH does not exist yet or the file system cannot swap), so that a
 * reader sees the old file or the new one, never a part.  After a swap
 * PATH.tmp holds the previous file, whose pages the next call overwrites
 * in place (a fraction of the cost of new ones at tens of megabytes).  No
 * fsync: a crash may lose the last file, which the next cycle writes
 * again.  Returns 0, or -1 with errp naming the file and the system's
 * reason (the temporary file removed, PATH untouched).
 */
int mf_metrics_write_file(const char *path, const mf_metrics_t *m,
			  mf_error_t *errp);

/* The key of PriorityParameters that names the plugin's metrics file. */
#define MF_METRICS_PARAM "mfprio_metrics_file"

/*
 * Find KEY=VALUE among PARAMS (PriorityParameters: comma-separated items,
 * blanks around an item ignored, other items left to whoever reads them;
 * the key matched without regard to case).  Returns 0 when absent (*VALUE
 * NULL), 1 with *VALUE a new string (g_free) naming a valid file: an
 * absolute path ending in ".prom" (node_exporter's textfile collector reads
 * only those) with no blank; -1 with errp naming the key and what is wrong
 * (no "=", an empty, relative or otherwise unusable value, the key given
 * twice), *VALUE NULL.
 */
int mf_metrics_param(const char *params, const char *key, char **value,
		     mf_error_t *errp);

#endif
