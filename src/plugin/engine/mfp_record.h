/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mfp_record: StateSaveLocation/mfprio_usage, the plugin's own record of
 * the usage of every association and QOS (src/core/usage_record.h for its
 * text), so that a controller killed between two of slurmctld's own saves
 * of assoc_usage loses at most one PriorityCalcPeriod of usage.
 *
 * After each tick, once priority_last_decay_ran says that tick (so that a
 * record never runs ahead of the time running jobs are charged from),
 * mfp_record_take() copies the figures under assoc_mgr's read locks and
 * mfp_record_write() writes them with no lock held: mfprio_usage.new,
 * fsync, rename.  At start mfp_record_apply() takes the record in place of
 * the usage slurmctld loaded when the record is newer than slurmctld's
 * saved assoc_usage and no newer than the last tick; a record of another
 * cluster, of another set of associations or TRES, of a QOS slurmctld does
 * not have, or torn or changed (its sum), is named in the log and left
 * alone: the usage slurmctld loaded stays.  Before that, a saved
 * assoc_usage written after this process started (by a backup controller
 * handing back, which from 26.05 may answer before it has saved) is read
 * again, so that slurmctld holds the newest saved usage.
 *
 * Controller only; the decay thread writes, init reads.  Never fails
 * loudly: every problem is logged and the plugin goes on.
 */
#ifndef MFPRIO_PLUGIN_MFP_RECORD_H
#define MFPRIO_PLUGIN_MFP_RECORD_H

#include <time.h>

#include "src/core/usage_record.h"

/* The figures now, as of tick NOW (g_new; the caller passes it to
 * mfp_record_write).  Takes assoc_mgr's assoc, QOS and TRES read locks. */
mf_usage_record_t *mfp_record_take(time_t now);

/* Write REC and free it.  No slurmctld lock may be held.  Returns 0, or
 * -1 after logging why (once per distinct reason in a row). */
int mfp_record_write(mf_usage_record_t *rec);

/* At start: read slurmctld's saved usage again where another controller
 * wrote it after this process started; then take the record where it is
 * newer than that saved usage and not newer than LAST_RAN.  Takes
 * assoc_mgr's write locks. */
void mfp_record_apply(time_t last_ran);

#endif
