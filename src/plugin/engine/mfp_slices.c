/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "mfp_slices.h"

#define SLICE_MS 2.0
#define SLICE_CHECK 32          /* jobs between two looks at the clock */


void mfp_slices_walk(mfp_slices_t *sl, mfp_cycle_t *cycle)
{
	slurmctld_lock_t job_write_lock = { .job = WRITE_LOCK,
					    .node = READ_LOCK,
					    .part = READ_LOCK };
	assoc_mgr_lock_t locks = { 0 };
	list_t *jobs = mfa_job_list();
	list_itr_t *itr = NULL;
	bool done = false;

	if (sl->assoc_locks)
		locks = *sl->assoc_locks;

	while (!done) {
		double t, held;

		mfa_ctld_lock(job_write_lock);
		t = mfp_stats_clock(0);
		if (sl->assoc_locks)
			assoc_mgr_lock(&locks);
		if (!itr) {
			if (sl->first)
				sl->first(sl->arg);
			/* no job list (a program standing in for
			   slurmctld may have none): an empty walk */
			if (jobs)
				itr = list_iterator_create(jobs);
		}
		for (int n = 0; ; n++) {
			job_record_t *job_ptr = itr ? list_next(itr) : NULL;

			if (!job_ptr) {
				done = true;
				break;
			}
			sl->visit(job_ptr, sl->arg);
			if (n % SLICE_CHECK == SLICE_CHECK - 1 &&
			    mfp_stats_clock(0) - t >= SLICE_MS)
				break;
		}
		if (done) {
			if (itr)
				list_iterator_destroy(itr);
			if (sl->last)
				sl->last(sl->arg);
		}
		if (sl->assoc_locks)
			assoc_mgr_unlock(&locks);
		held = mfp_stats_clock(0) - t;
		mfa_ctld_unlock(job_write_lock);
		sl->lock_ms += held;
		sl->holds++;
		cycle->lock_longest_ms = MAX(cycle->lock_longest_ms, held);
	}
}
