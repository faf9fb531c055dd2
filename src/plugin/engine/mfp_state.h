/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mfp_state: StateSaveLocation/priority_last_decay_ran, in the format of
 * Slurm 22.05's own priority/multifactor (two pack_time values: the last
 * decay and the last usage reset, 16 bytes big-endian), so that a site can
 * switch between that plugin and this one in either direction.
 *
 * Writing goes through priority_last_decay_ran.new, fsync, then rotates the
 * current file to .old and the new one in.  Reading never stops the
 * controller: a missing file means a first start; a short or unreadable one
 * is reported with its path and, when possible, the .old copy is used.
 * (Slurm's plugin refuses to start on a short file unless slurmctld runs
 * with -i; mfprio deliberately carries on.)
 *
 * Controller only: uses slurmctld's state-file lock.
 */
#ifndef MFPRIO_PLUGIN_MFP_STATE_H
#define MFPRIO_PLUGIN_MFP_STATE_H

#include <stdint.h>
#include <time.h>
#include <glib.h>

/* Read the times into *LAST_RAN and *LAST_RESET (0 when unknown). */
void mfp_state_read(time_t *last_ran, time_t *last_reset);

/* Write the times.  Returns 0, or -1 after logging why. */
int mfp_state_write(time_t last_ran, time_t last_reset);

/*
 * StateSaveLocation/mfprio_charged_jobs (mfprio's own, text, a line "ID END"
 * per job): the jobs charged since the last decay pass because they ended
 * (job id -> end time), so that a restart before the next pass does not
 * charge them twice.
 *
 * mfp_charged_copy() copies CHARGED into a new array of mfp_charged_t (the
 * caller holds whatever guards CHARGED; cheap, no I/O);
 * mfp_charged_write() replaces the file with RECORD and frees it (NULL or
 * empty: removes the file); call it with no slurmctld lock held.
 * mfp_charged_read() adds to CHARGED the entries that ended after LAST_RAN;
 * a bad line is logged with the file and line number and skipped, and the
 * lines after it are still read.
 */
typedef struct {
	uint32_t job_id;
	time_t end;
} mfp_charged_t;

GArray *mfp_charged_copy(GHashTable *charged);
int mfp_charged_write(GArray *record);
void mfp_charged_read(GHashTable *charged, time_t last_ran);

#endif
