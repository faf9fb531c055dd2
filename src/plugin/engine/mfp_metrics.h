/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mfp_metrics: the plugin's Prometheus metrics file, for node_exporter's
 * textfile collector (PriorityParameters=mfprio_metrics_file=/path/x.prom;
 * the families: src/core/metrics.h).
 *
 * Each decay cycle, only when the file is set:
 *   - mfp_metrics_collect_assocs() copies every association's figures, as
 *     sshare would read them from slurmctld, into the module's own plain
 *     records (strings copied too), under assoc_mgr's assoc READ lock,
 *     taken and released inside;
 *   - the pricing pass hands each job to mfp_metrics_job() under the locks
 *     it already holds (job write, assoc read), which folds the pending
 *     ones sprio lists into per association and partition tallies;
 *   - mfp_metrics_cycle_done(), with no slurmctld lock held, hands the
 *     cycle's records, its figures and copies of the file's path and the
 *     cluster's name to the plugin's metrics writer thread (started then,
 *     the first time), under a mutex of this module's own, and returns: the
 *     records are double-buffered, the decay thread fills one set while the
 *     writer formats the other and writes the file through a temporary one
 *     swapped with it (mf_metrics_write_file()).  When the writer is still
 *     busy with the last file, this cycle's file is skipped and counted
 *     (mfprio_metrics_skipped_total); the decay thread never waits.
 * Nothing here fails the cycle: an error writing the file is logged once
 * per distinct message (again only after a success or another message)
 * and otherwise ignored; a writer that cannot start leaves the writing to
 * the decay thread, as before.  Memory: two sets of records (about 100
 * bytes and the names per association each), freed by mfp_metrics_fini(),
 * which stops and joins the writer (after the file it is writing, if any).
 * Decay thread only, but for the writer (and fini after the decay thread
 * stopped).
 */
#ifndef MFPRIO_PLUGIN_MFP_METRICS_H
#define MFPRIO_PLUGIN_MFP_METRICS_H

#include <stdbool.h>
#include <time.h>

#include "src/plugin/access/access.h"

#include "mfp_stats.h"

/* Is a metrics file set in the settings of the calling scope? */
bool mfp_metrics_on(void);

/* Start a cycle's collection: forget the last cycle's records. */
void mfp_metrics_begin(void);

/* Copy every association's figures (takes and releases the assoc READ
 * lock).  Returns how long it held the lock, in milliseconds. */
double mfp_metrics_collect_assocs(void);

/* A job of the pricing pass at time NOW (job write lock and assoc read
 * lock held): counted when pending and listed by sprio; a job met twice
 * (the walk may repeat after a list sort) is counted once. */
void mfp_metrics_job(job_record_t *job_ptr, time_t now);

/* The cycle C is over (no slurmctld lock held): hand the file to the
 * writer thread, or skip it when the writer is busy. */
void mfp_metrics_cycle_done(const mfp_cycle_t *c);

/* Stop and join the writer if it runs, free what is kept (the plugin is
 * unloaded; the decay thread has stopped).  Safe when nothing started. */
void mfp_metrics_fini(void);

#endif
