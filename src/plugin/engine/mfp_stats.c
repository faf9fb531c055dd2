/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <unistd.h>

#include "src/plugin/access/access.h"
#include "mfp_settings.h"
#include "mfp_stats.h"

/* Totals since the plugin was loaded; the decay thread alone touches them. */
static uint64_t _cycles;
static double _sum_lock_ms, _max_lock_ms, _sum_cpu_ms;
static bool _write_failed;

double mfp_stats_clock(int which)
{
	struct timespec ts;

	if (clock_gettime(which ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC,
			  &ts) < 0)
		return 0;
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Write the file through a temporary one and a rename, so that a reader
 * never sees half of it.  Returns 0 or -1 (errno set). */
static int _write(const char *path, const mfp_cycle_t *c, double lock_ms)
{
	char *tmp = xstrdup_printf("%s.new", path);
	FILE *f = fopen(tmp, "w");
	int rc = 0;

	if (!f) {
		xfree(tmp);
		return -1;
	}
	fprintf(f,
		"# mfprio: the priority plugin's own figures, rewritten after "
		"every decay cycle\n"
		"cycle %" PRIu64 "\n"
		"cycle_time %ld\n"
		"wall_ms %.3f\n"
		"thread_cpu_ms %.3f\n"
		"job_lock_ms %.3f\n"
		"job_lock_charge_ms %.3f\n"
		"job_lock_charge_slices %u\n"
		"job_lock_priorities_ms %.3f\n"
		"job_lock_priorities_slices %u\n"
		"job_lock_longest_ms %.3f\n"
		"assoc_lock_ms %.3f\n"
		"fairshare_tree_built %d\n"
		"fairshare_tree_builds %" PRIu64 "\n"
		"jobs_total %u\n"
		"jobs_recomputed %u\n"
		"jobs_changed %u\n"
		"jobs_skipped %u\n"
		"cycles_since_start %" PRIu64 "\n"
		"job_lock_ms_mean %.3f\n"
		"job_lock_ms_max %.3f\n"
		"thread_cpu_ms_mean %.3f\n",
		_cycles, (long) c->start, c->wall_ms, c->cpu_ms, lock_ms,
		c->lock_charge_ms, c->charge_slices, c->lock_prio_ms, c->slices,
		c->lock_longest_ms, c->assoc_ms, c->fs_tree_built,
		c->fs_tree_builds, c->jobs_total,
		c->jobs_recomputed, c->jobs_changed, c->jobs_skipped, _cycles,
		_sum_lock_ms / _cycles, _max_lock_ms, _sum_cpu_ms / _cycles);
	if (fflush(f) || ferror(f))
		rc = -1;
	if (fclose(f))
		rc = -1;
	if (!rc && rename(tmp, path) < 0)
		rc = -1;
	if (rc) {
		int e = errno;

		(void) unlink(tmp);
		errno = e;
	}
	xfree(tmp);
	return rc;
}

void mfp_stats_totals(mfp_stats_totals_t *t)
{
	t->cycles = _cycles;
	t->lock_ms_sum = _sum_lock_ms;
	t->lock_ms_max = _max_lock_ms;
	t->cpu_ms_sum = _sum_cpu_ms;
}

void mfp_stats_cycle_done(const mfp_cycle_t *c)
{
	double lock_ms = c->lock_charge_ms + c->lock_prio_ms;
	double longest = c->lock_longest_ms;
	char *path;

	_cycles++;
	_sum_lock_ms += lock_ms;
	_sum_cpu_ms += c->cpu_ms;
	if (longest > _max_lock_ms)
		_max_lock_ms = longest;

	log_flag(PRIO, "mfprio: cycle %" PRIu64 ": job write lock %.3f ms "
		 "(charge %.3f in %u slices + priorities %.3f in %u slices, "
		 "longest hold "
		 "%.3f), assoc lock "
		 "%.3f ms (tree %s), thread CPU %.3f ms, wall %.3f ms; jobs: %u "
		 "recomputed, %u changed, %u skipped, %u in all", _cycles,
		 lock_ms, c->lock_charge_ms, c->charge_slices, c->lock_prio_ms,
		 c->slices,
		 longest,
		 c->assoc_ms, c->fs_tree_built ? "built" : "kept", c->cpu_ms,
		 c->wall_ms, c->jobs_recomputed,
		 c->jobs_changed, c->jobs_skipped, c->jobs_total);

	if (!mfp_conf.state_dir ||
	    !xstrcmp(mfp_conf.state_dir, "/dev/null"))
		return;
	path = xstrdup_printf("%s/%s", mfp_conf.state_dir,
			      MFP_STATS_FILE);
	if (_write(path, c, lock_ms) < 0) {
		if (!_write_failed)
			error("mfprio: cannot write %s: %m (the plugin's own "
			      "figures; nothing else is affected)", path);
		_write_failed = true;
	} else {
		_write_failed = false;
	}
	xfree(path);
}
