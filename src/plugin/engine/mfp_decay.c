/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mfp_decay: the thread that runs every PriorityCalcPeriod, and the usage
 * accounting it and priority_p_job_end() share.
 *
 * One tick at time NOW:
 *   1. PriorityUsageResetPeriod: zero usage when a reset is due;
 *   2. decay every association's and QOS's usage by D^(NOW - last tick);
 *   3. charge running jobs for [last tick, NOW], and finished jobs that
 *      nobody charged for [last tick, their end] (job write lock, then
 *      assoc_mgr's locks, the documented order); last tick := NOW;
 *   4. fair-share of every association through the core (assoc lock);
 *   5. every pending job's priority (job write lock, one job at a time
 *      under assoc read locks);
 *   6. StateSaveLocation/priority_last_decay_ran.
 *
 * Usage is never lost: slurmctld calls priority_p_job_end() at a job's end
 * only with AccountingStorageEnforce=limits.  Without it, step 3 charges
 * the finished jobs, and between ticks a light sweep does the same before
 * MinJobAge can purge their records.  Jobs charged by a sweep are
 * remembered until the next tick so that they are charged once.
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <sys/prctl.h>
#include <sys/time.h>

#include "mfp_internal.h"
#include "mfp_state.h"
#include "mfp_stats.h"
#include "mfp_tree.h"

#include "src/core/decay.h"

#define THREAD_NAME "mfprio_decay"

static pthread_t _thread;
static pthread_mutex_t _lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t _cond = PTHREAD_COND_INITIALIZER;
static bool _stop, _reconfig, _ready, _running;

/* Guarded by slurmctld's job write lock (every writer and every reader
 * holds it). */
static time_t _last_ran;
static double _decay_factor = 1.0;   /* per second */
static GHashTable *_swept;           /* job id -> end time charged */
static time_t _last_reset;           /* as read at start (the thread keeps
				      * its own afterwards) */

static void *_decay_thread(void *arg);
static void _tick(time_t now, time_t *last_reset, uint16_t *reset_period,
		  time_t *next_reset);
static void _sweep(void);
static void _apply_decay(double factor);
static void _reset_usage(void);
static bool _limits(void);
static void _charge(job_record_t *job_ptr, time_t from, time_t to,
		    bool at_end, bool mark_ended);
static void _drain(uint64_t *run, const uint64_t *delta, uint32_t job_id,
		   const char *what);
static void _add_tres_usage(long double *usage_tres_raw,
			    const long double *tres_decay);
static void _qos_tres_run_secs(long double *tres_decay, uint64_t *delta,
			       job_record_t *job_ptr, slurmdb_qos_rec_t *qos);
static void _assoc_tres_run_secs(long double *tres_decay, uint64_t *delta,
				 uint32_t job_id, slurmdb_assoc_rec_t *assoc);
static int _charge_running(void *x, void *arg);
static int _charge_finished(void *x, void *arg);
static mf_reset_period_t _mf_reset(uint16_t p);
static uint32_t _sweep_interval(void);

time_t mfp_last_ran(void)
{
	return _last_ran;
}

static bool _limits(void)
{
	return accounting_enforce & ACCOUNTING_ENFORCE_LIMITS;
}

static mf_reset_period_t _mf_reset(uint16_t p)
{
	switch (p) {
	case PRIORITY_RESET_NOW:
		return MF_RESET_NOW;
	case PRIORITY_RESET_DAILY:
		return MF_RESET_DAILY;
	case PRIORITY_RESET_WEEKLY:
		return MF_RESET_WEEKLY;
	case PRIORITY_RESET_MONTHLY:
		return MF_RESET_MONTHLY;
	case PRIORITY_RESET_QUARTERLY:
		return MF_RESET_QUARTERLY;
	case PRIORITY_RESET_YEARLY:
		return MF_RESET_YEARLY;
	default:
		return MF_RESET_NONE;
	}
}

/* Multiply all usage by FACTOR, except QOS with NoDecay. */
static void _apply_decay(double factor)
{
	assoc_mgr_lock_t locks = { .assoc = WRITE_LOCK, .qos = WRITE_LOCK };
	slurmdb_assoc_rec_t *assoc;
	slurmdb_qos_rec_t *qos;
	list_itr_t *itr;

	if (factor == 1.0)
		return;
	assoc_mgr_lock(&locks);
	itr = list_iterator_create(assoc_mgr_assoc_list);
	while ((assoc = list_next(itr))) {
		slurmdb_assoc_usage_t *u = assoc->usage, *leaf;

		u->usage_raw *= factor;
		for (int i = 0; i < slurmctld_tres_cnt; i++)
			u->usage_tres_raw[i] *= factor;
		u->grp_used_wall *= factor;
		leaf = assoc->leaf_usage;
		if (leaf && leaf != u) {
			leaf->usage_raw *= factor;
			for (int i = 0; i < slurmctld_tres_cnt; i++)
				leaf->usage_tres_raw[i] *= factor;
			leaf->grp_used_wall *= factor;
		}
	}
	list_iterator_destroy(itr);
	itr = list_iterator_create(assoc_mgr_qos_list);
	while ((qos = list_next(itr))) {
		if (qos->flags & QOS_FLAG_NO_DECAY)
			continue;
		qos->usage->usage_raw *= factor;
		for (int i = 0; i < slurmctld_tres_cnt; i++)
			qos->usage->usage_tres_raw[i] *= factor;
		qos->usage->grp_used_wall *= factor;
	}
	list_iterator_destroy(itr);
	assoc_mgr_unlock(&locks);
}

/* PriorityUsageResetPeriod: forget all usage. */
static void _reset_usage(void)
{
	assoc_mgr_lock_t locks = { .assoc = WRITE_LOCK, .qos = WRITE_LOCK };
	slurmdb_assoc_rec_t *assoc;
	slurmdb_qos_rec_t *qos;
	list_itr_t *itr;

	info("mfprio: PriorityUsageResetPeriod: resetting all usage");
	assoc_mgr_lock(&locks);
	itr = list_iterator_create(assoc_mgr_assoc_list);
	while ((assoc = list_next(itr))) {
		assoc->usage->usage_raw = 0;
		for (int i = 0; i < slurmctld_tres_cnt; i++)
			assoc->usage->usage_tres_raw[i] = 0;
		assoc->usage->grp_used_wall = 0;
		if (assoc->leaf_usage && assoc->leaf_usage != assoc->usage) {
			slurmdb_destroy_assoc_usage(assoc->leaf_usage);
			assoc->leaf_usage = NULL;
		}
	}
	list_iterator_destroy(itr);
	itr = list_iterator_create(assoc_mgr_qos_list);
	while ((qos = list_next(itr))) {
		qos->usage->usage_raw = 0;
		for (int i = 0; i < slurmctld_tres_cnt; i++)
			qos->usage->usage_tres_raw[i] = 0;
		qos->usage->grp_used_wall = 0;
	}
	list_iterator_destroy(itr);
	assoc_mgr_unlock(&locks);
}

/* Take DELTA (TRES-seconds per TRES) from the running total RUN, never
 * below 0 (a shortfall is logged: slurmctld's reservation and the usage
 * disagree, and 0 is the only safe value). */
static void _drain(uint64_t *run, const uint64_t *delta, uint32_t job_id,
		   const char *what)
{
	for (int i = 0; i < slurmctld_tres_cnt; i++) {
		if (i == TRES_ARRAY_ENERGY)
			continue;
		if (delta[i] <= run[i]) {
			run[i] -= delta[i];
			continue;
		}
		error("mfprio: job %u: %s: TRES %s has %"PRIu64" run seconds "
		      "reserved, %"PRIu64" used; setting 0", job_id, what,
		      assoc_mgr_tres_name_array[i], run[i], delta[i]);
		run[i] = 0;
	}
}

/* Add TRES_DECAY (may be NULL) to the TRES usage USAGE_TRES_RAW. */
static void _add_tres_usage(long double *usage_tres_raw,
			    const long double *tres_decay)
{
	if (!tres_decay)
		return;
	for (int i = 0; i < slurmctld_tres_cnt; i++)
		if (i != TRES_ARRAY_ENERGY)
			usage_tres_raw[i] += tres_decay[i];
}

/* TRES-seconds JOB_PTR no longer holds, taken from QOS's running totals
 * (the ones its release keeps: mfa_qos_run_totals), with TRES_DECAY (may be
 * NULL) added to the QOS's TRES usage; only under limits enforcement. */
static void _qos_tres_run_secs(long double *tres_decay, uint64_t *delta,
			       job_record_t *job_ptr, slurmdb_qos_rec_t *qos)
{
	mfa_run_total_t totals[MFA_RUN_TOTALS_MAX];
	char what[128];
	int n;

	if (!qos || !_limits())
		return;
	if (!(n = mfa_qos_run_totals(qos, job_ptr, totals)))
		return;
	_add_tres_usage(qos->usage->usage_tres_raw, tres_decay);
	for (int k = 0; k < n; k++) {
		snprintf(what, sizeof(what), "QOS %s%s", qos->name,
			 totals[k].what);
		_drain(totals[k].run, delta, job_ptr->job_id, what);
	}
}

/* The same for an association's running total. */
static void _assoc_tres_run_secs(long double *tres_decay, uint64_t *delta,
				 uint32_t job_id, slurmdb_assoc_rec_t *assoc)
{
	char what[64];

	if (!assoc || !_limits())
		return;
	_add_tres_usage(assoc->usage->usage_tres_raw, tres_decay);
	snprintf(what, sizeof(what), "association %u", assoc->id);
	_drain(assoc->usage->grp_used_tres_run_secs, delta, job_id, what);
}

/*
 * Charge JOB_PTR for [FROM, TO] (clipped to its start, and to its end when
 * AT_END): billable TRES x seconds, decayed over the interval, times the
 * QOS UsageFactor, to its QOS, its partition's QOS and its association and
 * every ancestor; grp_used_tres_run_secs loses the reserved TRES-seconds
 * the interval used up.  MARK_ENDED records the end as Slurm's own
 * job-end path does (end_time_exp = NO_VAL), so it happens once.
 * Caller holds the job write lock and assoc_mgr's assoc and QOS write and
 * TRES read locks.
 */
static void _charge(job_record_t *job_ptr, time_t from, time_t to,
		    bool at_end, bool mark_ended)
{
	int cnt = slurmctld_tres_cnt;
	uint64_t tres_delta[cnt];
	long double tres_decay[cnt], tres_nodecay[cnt];
	double run, run_decay, run_nodecay, billable, real_decay, real_nodecay;
	uint64_t limit_ends, time_delta = 0;
	slurmdb_qos_rec_t *qos, *part_qos;
	slurmdb_assoc_rec_t *assoc;

	if (job_ptr->end_time_exp == (time_t) NO_VAL)
		return;          /* its end was charged already */
	if (job_ptr->start_time > from)
		from = job_ptr->start_time;
	if (at_end && job_ptr->end_time && to > job_ptr->end_time)
		to = job_ptr->end_time;
	run = difftime(to, from);
	if (run < 0)
		run = 0;

	/* reserved TRES-seconds: slurmctld added time_limit's worth at
	 * start, so never take back more than that */
	limit_ends = (uint64_t) job_ptr->start_time +
		(uint64_t) job_ptr->time_limit * 60;
	if ((uint64_t) from >= limit_ends)
		time_delta = 0;
	else if (IS_JOB_FINISHED(job_ptr) || IS_JOB_COMPLETING(job_ptr) ||
		 IS_JOB_RESIZING(job_ptr))
		time_delta = limit_ends - (uint64_t) from;
	else if (to > job_ptr->end_time_exp) {
		double left = difftime(job_ptr->end_time_exp, from);

		if (left > 0)
			time_delta = (uint64_t) left;
	} else
		time_delta = (uint64_t) run;
	if (mark_ended)
		job_ptr->end_time_exp = (time_t) NO_VAL;

	run_decay = run * mf_decay_over(_decay_factor, run);
	billable = calc_job_billable_tres(job_ptr, from, true);
	real_decay = run_decay * billable;
	real_nodecay = run * billable;
	run_nodecay = run;
	qos = job_ptr->qos_ptr;
	if (qos && qos->usage_factor >= 0) {
		real_decay *= qos->usage_factor;
		run_decay *= qos->usage_factor;
		real_nodecay *= qos->usage_factor;
		run_nodecay *= qos->usage_factor;
		time_delta *= qos->usage_factor;
	}
	for (int i = 0; i < cnt; i++) {
		uint64_t n = job_ptr->tres_alloc_cnt ?
			job_ptr->tres_alloc_cnt[i] : 0;

		tres_delta[i] = 0;
		tres_decay[i] = tres_nodecay[i] = 0;
		if (!n || n == NO_CONSUME_VAL64)
			continue;
		tres_delta[i] = time_delta * n;
		tres_decay[i] = (long double) run_decay * n;
		tres_nodecay[i] = (long double) run_nodecay * n;
	}
	log_flag(PRIO, "mfprio: %pJ charged %.0f s x %.3f billable (%.3f "
		 "decayed) from %ld to %ld", job_ptr, run, billable,
		 real_decay, (long) from, (long) to);

	part_qos = job_ptr->part_ptr ? job_ptr->part_ptr->qos_ptr : NULL;
	if (part_qos == qos)
		part_qos = NULL;
	for (int k = 0; k < 2; k++) {
		slurmdb_qos_rec_t *q = k ? part_qos : qos;

		if (!q)
			continue;
		if (q->flags & QOS_FLAG_NO_DECAY) {
			q->usage->grp_used_wall += run_nodecay;
			q->usage->usage_raw += (long double) real_nodecay;
			_qos_tres_run_secs(tres_nodecay, tres_delta,
					   job_ptr, q);
		} else {
			q->usage->grp_used_wall += run_decay;
			q->usage->usage_raw += (long double) real_decay;
			_qos_tres_run_secs(tres_decay, tres_delta,
					   job_ptr, q);
		}
	}
	/* the association and every ancestor up to root */
	for (assoc = job_ptr->assoc_ptr; assoc;
	     assoc = assoc->usage->parent_assoc_ptr) {
		assoc->usage->grp_used_wall += run_decay;
		assoc->usage->usage_raw += (long double) real_decay;
		_assoc_tres_run_secs(tres_decay, tres_delta, job_ptr->job_id,
				     assoc);
	}
}

void mfp_charge_job_end(job_record_t *job_ptr)
{
	assoc_mgr_lock_t locks = { .assoc = WRITE_LOCK, .qos = WRITE_LOCK,
				   .tres = READ_LOCK };

	if (!mfp_conf.calc_fairshare)
		return;
	assoc_mgr_lock(&locks);
	_charge(job_ptr, _last_ran, time(NULL), true, true);
	assoc_mgr_unlock(&locks);
	if (_swept)
		g_hash_table_remove(_swept, GUINT_TO_POINTER(job_ptr->job_id));
}

/* list_for_each: charge a running job up to *(time_t *) ARG. */
static int _charge_running(void *x, void *arg)
{
	job_record_t *job_ptr = x;

	if (IS_JOB_FINISHED(job_ptr) || IS_JOB_COMPLETING(job_ptr))
		return _charge_finished(x, NULL);   /* the pass forgets them */
	if (((mfp_conf.slurm_flags & PRIORITY_FLAGS_CALCULATE_RUNNING) ||
	     !IS_JOB_PENDING(job_ptr)) && !IS_JOB_POWER_UP_NODE(job_ptr) &&
	    job_ptr->start_time && job_ptr->assoc_ptr)
		_charge(job_ptr, _last_ran, *(time_t *) arg, false, false);
	return 0;
}

/*
 * list_for_each: a job that ended after the last tick and that slurmctld
 * did not report (no limits enforcement): charge it up to its end, once.
 */
static int _charge_finished(void *x, void *arg)
{
	job_record_t *job_ptr = x;
	gpointer key = GUINT_TO_POINTER(job_ptr->job_id);

	if (_limits() || !job_ptr->assoc_ptr || !job_ptr->start_time ||
	    !job_ptr->end_time || job_ptr->end_time <= _last_ran ||
	    job_ptr->end_time_exp == (time_t) NO_VAL)
		return 0;
	if (!IS_JOB_FINISHED(job_ptr) && !IS_JOB_COMPLETING(job_ptr))
		return 0;
	/* charged already for this very end; a requeued job that ended
	 * again has another end time and its new run is charged */
	if (g_hash_table_lookup(_swept, key) ==
	    GSIZE_TO_POINTER(job_ptr->end_time))
		return 0;
	_charge(job_ptr, _last_ran, job_ptr->end_time, true, false);
	g_hash_table_insert(_swept, key, GSIZE_TO_POINTER(job_ptr->end_time));
	if (arg)
		(*(int *) arg)++;
	return 0;
}

/* Between ticks: charge jobs that ended, before MinJobAge purges them. */
static void _sweep(void)
{
	slurmctld_lock_t job_write_lock = { .job = WRITE_LOCK,
					    .node = READ_LOCK,
					    .part = READ_LOCK };
	assoc_mgr_lock_t locks = { .assoc = WRITE_LOCK, .qos = WRITE_LOCK,
				   .tres = READ_LOCK };

	int charged = 0;
	GArray *record = NULL;

	if (_limits() || !_last_ran)
		return;
	lock_slurmctld(job_write_lock);
	assoc_mgr_lock(&locks);
	list_for_each(job_list, _charge_finished, &charged);
	assoc_mgr_unlock(&locks);
	if (charged)
		record = mfp_charged_copy(_swept);
	unlock_slurmctld(job_write_lock);
	/* remembered across a restart until the next pass; written with no
	 * slurmctld lock held (the disk may be slow) */
	if (record)
		(void) mfp_charged_write(record);
}

double mfp_fairshare_recompute(void)
{
	assoc_mgr_lock_t locks = { .assoc = WRITE_LOCK };
	mf_fs_config_t cfg;
	mf_error_t fs_err;
	double t;

	mfp_conf_enter();
	cfg = mfp_conf.fs;
	mfp_conf_leave();
	assoc_mgr_lock(&locks);
	t = mfp_stats_clock(0);
	if (mfp_tree_recompute(&cfg, &fs_err) < 0)
		error("mfprio: fair-share not recomputed: %s", fs_err.text);
	t = mfp_stats_clock(0) - t;
	assoc_mgr_unlock(&locks);
	return t;
}

static void _tick(time_t now, time_t *last_reset, uint16_t *reset_period,
		  time_t *next_reset)
{
	slurmctld_lock_t job_write_lock = { .job = WRITE_LOCK,
					    .node = READ_LOCK,
					    .part = READ_LOCK };
	assoc_mgr_lock_t locks = { .assoc = WRITE_LOCK, .qos = WRITE_LOCK,
				   .tres = READ_LOCK };
	mf_reset_period_t rp = _mf_reset(*reset_period);
	bool forget;
	mfp_cycle_t cycle = { .start = now };
	mfp_pass_t pass = { .now = now };
	double wall0 = mfp_stats_clock(0), cpu0 = mfp_stats_clock(1), t;

	/* 1. reset */
	if (rp == MF_RESET_NOW) {
		_reset_usage();
		*reset_period = PRIORITY_RESET_NONE;
		*last_reset = now;
	} else if (rp != MF_RESET_NONE) {
		if (!*next_reset)
			*next_reset = mf_next_reset(rp, *last_reset, now);
		if (*next_reset && now >= *next_reset) {
			_reset_usage();
			*last_reset = *next_reset;
			*next_reset = mf_next_reset(rp, *last_reset, now);
		}
	}

	/* 2. decay since the last tick */
	if (_last_ran && now > _last_ran) {
		double f = mf_decay_over(_decay_factor,
					 difftime(now, _last_ran));

		log_flag(PRIO, "mfprio: decay over %ld s: %.15f",
			 (long) (now - _last_ran), f);
		_apply_decay(f);
	}

	/* 3. new usage */
	lock_slurmctld(job_write_lock);
	t = mfp_stats_clock(0);
	site_factor_g_update();
	assoc_mgr_lock(&locks);
	list_for_each(job_list, _charge_running, &now);
	assoc_mgr_unlock(&locks);
	_last_ran = now;
	forget = g_hash_table_size(_swept) > 0;
	g_hash_table_remove_all(_swept);
	cycle.lock_charge_ms = mfp_stats_clock(0) - t;
	unlock_slurmctld(job_write_lock);
	if (forget)
		(void) mfp_charged_write(NULL);

	/* 4. fair-share */
	cycle.assoc_ms = mfp_fairshare_recompute();

	/* 5. priorities */
	lock_slurmctld(job_write_lock);
	t = mfp_stats_clock(0);
	cycle.jobs_total = list_count(job_list);
	list_for_each(job_list, mfp_job_reprioritize, &pass);
	cycle.lock_prio_ms = mfp_stats_clock(0) - t;
	unlock_slurmctld(job_write_lock);

	/* 6. state */
	(void) mfp_state_write(now, *last_reset);

	cycle.jobs_recomputed = pass.recomputed;
	cycle.jobs_changed = pass.changed;
	cycle.jobs_skipped = pass.skipped;
	cycle.cpu_ms = mfp_stats_clock(1) - cpu0;
	cycle.wall_ms = mfp_stats_clock(0) - wall0;
	mfp_stats_cycle_done(&cycle);
}

/* Seconds between sweeps: often enough that MinJobAge cannot purge a job
 * before it is charged; 0 when no sweep is needed. */
static uint32_t _sweep_interval(void)
{
	uint32_t age = slurm_conf.min_job_age, period = mfp_conf.calc_period;

	if (_limits() || !age)
		return 0;
	if (age / 2 >= period)
		return 0;
	return MAX(age / 2, 5);
}

static void *_decay_thread(void *arg)
{
	time_t last_reset, next_reset = 0, now;
	uint16_t reset_period;
	struct timespec tick, wake;
	struct timeval tv;

	if (prctl(PR_SET_NAME, THREAD_NAME, NULL, NULL, NULL) < 0)
		error("mfprio: cannot name the decay thread %s: %m",
		      THREAD_NAME);

	/* the thread holds the settings of its pass; it takes the current
	 * ones again at the top of each loop */
	mfp_conf_enter();
	reset_period = mfp_conf.reset_period;
	last_reset = _last_reset;

	slurm_mutex_lock(&_lock);
	_ready = true;
	slurm_cond_broadcast(&_cond);
	slurm_mutex_unlock(&_lock);

	mfp_init_grp_used_tres_run_secs(_last_ran);

	gettimeofday(&tv, NULL);
	tick.tv_sec = tv.tv_sec;
	tick.tv_nsec = tv.tv_usec * 1000;
	now = tv.tv_sec;
	slurm_mutex_lock(&_lock);
	while (!_stop) {
		uint32_t sweep;

		_running = true;
		mfp_conf_leave();
		mfp_conf_enter();
		if (_reconfig) {
			_decay_factor = mfp_conf.decay_factor;
			reset_period = mfp_conf.reset_period;
			next_reset = 0;
			_reconfig = false;
		}
		slurm_mutex_unlock(&_lock);
		_tick(now, &last_reset, &reset_period, &next_reset);
		slurm_mutex_lock(&_lock);
		_running = false;

		/* sleep to the next tick, sweeping ended jobs meanwhile */
		tick.tv_sec += MAX(mfp_conf.calc_period, 1);
		while (!_stop) {
			sweep = _sweep_interval();
			wake = tick;
			if (sweep && time(NULL) + sweep < tick.tv_sec) {
				wake.tv_sec = time(NULL) + sweep;
				wake.tv_nsec = 0;
			}
			if (pthread_cond_timedwait(&_cond, &_lock, &wake) !=
			    ETIMEDOUT || _stop)
				break;
			if (wake.tv_sec >= tick.tv_sec)
				break;
			slurm_mutex_unlock(&_lock);
			_sweep();
			slurm_mutex_lock(&_lock);
		}
		now = time(NULL);
	}
	slurm_mutex_unlock(&_lock);
	mfp_conf_leave();
	return NULL;
}

void mfp_decay_prepare(void)
{
	time_t read_ran = 0;

	if (!_swept)
		_swept = g_hash_table_new(g_direct_hash, g_direct_equal);
	mfp_conf_enter();
	_decay_factor = mfp_conf.decay_factor;
	mfp_conf_leave();
	mfp_state_read(&read_ran, &_last_reset);
	if (!_last_reset)
		_last_reset = time(NULL);
	_last_ran = read_ran;
	mfp_charged_read(_swept, _last_ran);
}

void mfp_decay_start(void)
{
	int rc;

	if (!_swept)
		mfp_decay_prepare();
	_stop = false;
	_ready = false;
	if ((rc = pthread_create(&_thread, NULL, _decay_thread, NULL))) {
		/* without the thread there is no decay and no usage: say so
		 * loudly, but keep the controller up */
		error("mfprio: cannot start the decay thread: %s; usage is "
		      "not accrued until slurmctld restarts", strerror(rc));
		return;
	}
	slurm_mutex_lock(&_lock);
	while (!_ready)
		slurm_cond_wait(&_cond, &_lock);
	slurm_mutex_unlock(&_lock);
}

void mfp_decay_stop(void)
{
	slurm_mutex_lock(&_lock);
	if (_running)
		debug("mfprio: waiting for the decay thread to finish its "
		      "pass");
	_stop = true;
	slurm_cond_broadcast(&_cond);
	slurm_mutex_unlock(&_lock);
	if (_ready)
		pthread_join(_thread, NULL);
	if (_swept) {
		g_hash_table_destroy(_swept);
		_swept = NULL;
	}
}

void mfp_decay_reconfig(void)
{
	slurm_mutex_lock(&_lock);
	_reconfig = true;
	slurm_mutex_unlock(&_lock);
}

void mfp_init_grp_used_tres_run_secs(time_t last_ran)
{
	slurmctld_lock_t job_read_lock = { .job = READ_LOCK };
	assoc_mgr_lock_t locks = { .assoc = WRITE_LOCK, .qos = WRITE_LOCK,
				   .tres = READ_LOCK };
	int cnt = slurmctld_tres_cnt;
	job_record_t *job_ptr;
	list_itr_t *itr;

	if (!_limits() || !job_list || !list_count(job_list))
		return;
	lock_slurmctld(job_read_lock);
	assoc_mgr_lock(&locks);
	itr = list_iterator_create(job_list);
	while ((job_ptr = list_next(itr))) {
		uint64_t delta[cnt];
		double used;

		if (job_ptr->end_time_exp == (time_t) NO_VAL ||
		    !IS_JOB_RUNNING(job_ptr) ||
		    job_ptr->start_time > last_ran || !job_ptr->tres_alloc_cnt)
			continue;
		used = difftime(last_ran, job_ptr->start_time);
		if (job_ptr->qos_ptr && job_ptr->qos_ptr->usage_factor >= 0)
			used *= job_ptr->qos_ptr->usage_factor;
		for (int i = 0; i < cnt; i++)
			delta[i] = (job_ptr->tres_alloc_cnt[i] ==
				    NO_CONSUME_VAL64) ? 0 :
				(uint64_t) (job_ptr->tres_alloc_cnt[i] * used);
		_qos_tres_run_secs(NULL, delta, job_ptr, job_ptr->qos_ptr);
		if (job_ptr->part_ptr &&
		    job_ptr->part_ptr->qos_ptr != job_ptr->qos_ptr)
			_qos_tres_run_secs(NULL, delta, job_ptr,
					   job_ptr->part_ptr->qos_ptr);
		for (slurmdb_assoc_rec_t *a = job_ptr->assoc_ptr; a;
		     a = a->usage->parent_assoc_ptr)
			_assoc_tres_run_secs(NULL, delta, job_ptr->job_id, a);
	}
	list_iterator_destroy(itr);
	assoc_mgr_unlock(&locks);
	unlock_slurmctld(job_read_lock);
}
