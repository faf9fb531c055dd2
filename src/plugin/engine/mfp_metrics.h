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
 *   - mfp_metrics_cycle_done(), with no slurmctld lock held, formats all of
 *     it with the cycle's figures and writes the file through a temporary
 *     one swapped with it (mf_metrics_write_file()).
 * Nothing here fails the cycle: an error writing the file is logged once
 * per distinct message (again only after a success or another message)
 * and otherwise ignored.  Memory: the records of the last cycle are kept
 * for the next one (about 100 bytes and the names per association), freed
 * by mfp_metrics_fini().  Decay thread only (and fini after it stopped).
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

/* The cycle C is over (no slurmctld lock held): format and write. */
void mfp_metrics_cycle_done(const mfp_cycle_t *c);

/* Free what is kept (the plugin is unloaded; the thread has stopped). */
void mfp_metrics_fini(void);

#endif
