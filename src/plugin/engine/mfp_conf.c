/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mfp_conf: the engine's side of every entry point (the adapter's
 * family_*.c export them for each release and call these), and the
 * Priority* settings.  The decay thread and usage are in mfp_decay.c, job
 * priorities in mfp_jobs.c, fair-share through mfp_tree.c into the core.
 */
#include <inttypes.h>
#include <math.h>

#include "mfp_internal.h"
#include "mfp_metrics.h"
#include "mfp_usage.h"
#include "mfp_tree.h"

#include "src/core/decay.h"
#include "src/core/fs_factor.h"

/* Before mfp_init() and after mfp_fini(): defaults, never freed. */
static mfp_conf_t _defaults = {
	.fs = { .algo = MF_FS_FAIR_TREE, .damp = 1 },
	.decay_factor = 1.0,
	.calc_fairshare = true,
	.refs = 1,
};
static pthread_mutex_t _conf_mutex = PTHREAD_MUTEX_INITIALIZER;
static mfp_conf_t *_current = &_defaults;   /* under _conf_mutex */

/* The calling thread's scope: the object it holds and how deep. */
static __thread const mfp_conf_t *_held;
static __thread unsigned _depth;

static bool _controller;          /* loaded by slurmctld */
static bool _thread_started;

static uint32_t _mf_flags(uint32_t slurm_flags);
static mf_tres_set_t *_tres_set(void);
static double *_weight_tres(const mf_tres_set_t *set);
static void _conf_check(const mfp_conf_t *c);

/* Slurm's PRIORITY_FLAGS_* as the core's MF_FLAG_*. */
static uint32_t _mf_flags(uint32_t f)
{
	uint32_t m = 0;

	if (f & PRIORITY_FLAGS_ACCRUE_ALWAYS)
		m |= MF_FLAG_ACCRUE_ALWAYS;
	if (f & PRIORITY_FLAGS_CALCULATE_RUNNING)
		m |= MF_FLAG_CALCULATE_RUNNING;
	if (f & PRIORITY_FLAGS_DEPTH_OBLIVIOUS)
		m |= MF_FLAG_DEPTH_OBLIVIOUS;
	if (!(f & PRIORITY_FLAGS_FAIR_TREE) &&
	    !(f & PRIORITY_FLAGS_DEPTH_OBLIVIOUS))
		m |= MF_FLAG_NO_FAIR_TREE;
	if (f & PRIORITY_FLAGS_INCR_ONLY)
		m |= MF_FLAG_INCR_ONLY;
	if (f & PRIORITY_FLAGS_MAX_TRES)
		m |= MF_FLAG_MAX_TRES;
	if (f & PRIORITY_FLAGS_NO_NORMAL_ASSOC)
		m |= MF_FLAG_NO_NORMAL_ASSOC;
	if (f & PRIORITY_FLAGS_NO_NORMAL_PART)
		m |= MF_FLAG_NO_NORMAL_PART;
	if (f & PRIORITY_FLAGS_NO_NORMAL_QOS)
		m |= MF_FLAG_NO_NORMAL_QOS;
	if (f & PRIORITY_FLAGS_NO_NORMAL_TRES)
		m |= MF_FLAG_NO_NORMAL_TRES;
	if (f & PRIORITY_FLAGS_SIZE_RELATIVE)
		m |= MF_FLAG_SMALL_RELATIVE_TO_TIME;
	return m;
}

/* slurmctld's TRES, positions as in its arrays. */
static mf_tres_set_t *_tres_set(void)
{
	assoc_mgr_lock_t locks = { .tres = READ_LOCK };
	mf_tres_set_t *set = mf_tres_set_create();
	mf_error_t tres_err;

	assoc_mgr_lock(&locks);
	for (uint32_t i = MF_TRES_FIXED_CNT; i < g_tres_count; i++) {
		const char *name = assoc_mgr_tres_name_array ?
			assoc_mgr_tres_name_array[i] : NULL;

		if (mf_tres_add(set, name ? name : "unknown", &tres_err) !=
		    (int) i)
			error("mfprio: TRES %u (%s) out of place: %s", i,
			      name ? name : "?", tres_err.text);
	}
	assoc_mgr_unlock(&locks);
	return set;
}

/*
 * PriorityWeightTRES by the positions of SET, or NULL (none, or invalid).
 * The core's reader checks it first, so that a bad entry (unknown TRES
 * type, no number, negative weight) is one error line and no TRES weight,
 * where Slurm's own reader ends slurmctld; the values are then Slurm's.
 */
static double *_weight_tres(const mf_tres_set_t *set)
{
	const char *s = slurm_conf.priority_weight_tres;
	mf_error_t e;
	double *w;
	int bad;

	if (!s || !*s)
		return NULL;
	w = xcalloc(set->cnt, sizeof(double));
	bad = mf_tres_priority_weights_parse(set, s, w, &e);
	xfree(w);
	if (bad) {
		error("mfprio: PriorityWeightTRES=%s: %s; no TRES weights used",
		      s, e.text);
		return NULL;
	}
	return slurm_get_tres_weight_array(slurm_conf.priority_weight_tres,
					   (int) set->cnt, false);
}

/*
 * Values that slurmctld accepts but that cannot mean what they say: one
 * error line each (every read: start and each reconfigure), in the words
 * mfprio uses for the same value in slurm.conf (priority_conf.c).
 */
static void _conf_check(const mfp_conf_t *c)
{
	uint64_t total = (uint64_t) slurm_conf.priority_weight_age +
		slurm_conf.priority_weight_assoc +
		slurm_conf.priority_weight_fs + slurm_conf.priority_weight_js +
		slurm_conf.priority_weight_part +
		slurm_conf.priority_weight_qos;

	if (total > 0xffffffffULL)
		error("mfprio: the PriorityWeight* settings add up to %" PRIu64
		      ", more than 4294967295: high priorities will be "
		      "clamped", total);
	if (!slurm_conf.fs_dampening_factor)
		error("mfprio: FairShareDampeningFactor=0: 0 would divide by "
		      "zero; using 1");
	if (!c->half_life && c->reset_period == PRIORITY_RESET_NONE)
		error("mfprio: PriorityDecayHalfLife=0: with no decay and no "
		      "PriorityUsageResetPeriod usage only grows; going on");
}

static void _conf_free(mfp_conf_t *c)
{
	if (c == &_defaults)
		return;
	xfree(c->weight_tres);
	mf_tres_set_free(c->tres);
	xfree(c->state_dir);
	xfree(c->cluster);
	xfree(c->metrics_file);
	xfree(c);
}

/* Drop a reference (under _conf_mutex); the last one frees. */
static void _conf_unref_locked(mfp_conf_t *c)
{
	if (--c->refs == 0)
		_conf_free(c);
}

const mfp_conf_t *mfp_conf_now(void)
{
	if (_held)
		return _held;
	/* outside a scope: the current object, as a plain read of a
	 * pointer; every entry point and the thread open scopes, so this is
	 * a slip, reported under DebugFlags=Priority (a cluster test looks) */
	if (_current != &_defaults)
		log_flag(PRIO, "mfprio: settings read outside a scope");
	return _current;
}

void mfp_conf_enter(void)
{
	if (_depth++)
		return;
	slurm_mutex_lock(&_conf_mutex);
	_current->refs++;
	_held = _current;
	slurm_mutex_unlock(&_conf_mutex);
}

void mfp_conf_leave(void)
{
	if (!_depth || --_depth)
		return;
	slurm_mutex_lock(&_conf_mutex);
	_conf_unref_locked((mfp_conf_t *) _held);
	slurm_mutex_unlock(&_conf_mutex);
	_held = NULL;
}

/* Make C (one reference: the table's) the current settings. */
static void _conf_install(mfp_conf_t *c)
{
	mfp_conf_t *old;

	c->refs = 1;
	slurm_mutex_lock(&_conf_mutex);
	old = _current;
	_current = c;
	_conf_unref_locked(old);
	slurm_mutex_unlock(&_conf_mutex);
}

/*
 * New settings from slurm_conf; CALC_FAIRSHARE as the caller found it.
 * NO_DBD_AT_START: slurmctld starts without slurmdbd, where the age and
 * fair-share weights are dropped (as Slurm's own plugin does; like it, a
 * later reconfigure takes them from slurm.conf again).
 */
static mfp_conf_t *_conf_read(bool calc_fairshare, bool no_dbd_at_start)
{
	mfp_conf_t *c = xmalloc(sizeof(*c));
	uint32_t f = slurm_conf.priority_flags;

	c->calc_fairshare = calc_fairshare;

	c->slurm_flags = f;
	c->mf_flags = _mf_flags(f);
	c->fs.algo = mf_priority_flags_algo(c->mf_flags);
	/* 22.05 turns Fair Tree off by clearing its bit */
	if (!(f & PRIORITY_FLAGS_FAIR_TREE) && c->fs.algo == MF_FS_FAIR_TREE)
		c->fs.algo = MF_FS_CLASSIC;
	c->fs.damp = slurm_conf.fs_dampening_factor ?
		slurm_conf.fs_dampening_factor : 1;

	c->weight_age = slurm_conf.priority_weight_age;
	c->weight_assoc = slurm_conf.priority_weight_assoc;
	c->weight_fs = slurm_conf.priority_weight_fs;
	c->weight_js = slurm_conf.priority_weight_js;
	c->weight_part = slurm_conf.priority_weight_part;
	c->weight_qos = slurm_conf.priority_weight_qos;
	c->max_age = slurm_conf.priority_max_age;
	c->favor_small = slurm_conf.priority_favor_small;

	c->tres = _tres_set();
	c->weight_tres = _weight_tres(c->tres);

	c->half_life = slurm_conf.priority_decay_hl;
	c->decay_factor = mf_decay_factor(c->half_life);
	c->calc_period = slurm_conf.priority_calc_period;
	c->reset_period = slurm_conf.priority_reset_period;
	c->state_dir = xstrdup(slurm_conf.state_save_location);
	c->cluster = xstrdup(slurm_conf.cluster_name);
	c->metrics_file = mfp_metrics_param(slurm_conf.priority_params);
	_conf_check(c);

	if (no_dbd_at_start)
		c->weight_age = 0;
	/* no fair-share computed: its term is 0 whatever the weight */
	if (no_dbd_at_start || !c->calc_fairshare)
		c->weight_fs = 0;
	log_flag(PRIO, "mfprio: fair-share %s, damp %u, weights age %u assoc "
		 "%u fs %u js %u part %u qos %u, max age %u, half-life %u s, "
		 "period %u s, flags 0x%x", mf_fs_algo_name(c->fs.algo),
		 c->fs.damp, c->weight_age, c->weight_assoc, c->weight_fs,
		 c->weight_js, c->weight_part, c->weight_qos, c->max_age,
		 c->half_life, c->calc_period, f);
	return c;
}

int mfp_init(void)
{
	bool calc_fairshare = true;

	if (!mfp_in_controller()) {
		/* a client (sshare): only the fs factor formula is used */
		mfp_conf_t *c = xmalloc(sizeof(*c));

		*c = _defaults;
		c->fs.damp = slurm_conf.fs_dampening_factor ?
			slurm_conf.fs_dampening_factor : 1;
		_conf_install(c);
		_controller = false;
		return SLURM_SUCCESS;
	}
	_controller = true;

	if (!slurm_with_slurmdbd()) {
		if (slurm_conf.priority_weight_age)
			error("mfprio: PriorityWeightAge needs SlurmDBD; "
			      "ignoring it");
		if (slurm_conf.priority_weight_fs)
			error("mfprio: PriorityWeightFairshare needs SlurmDBD; "
			      "ignoring it");
		calc_fairshare = false;
	} else if (!assoc_mgr_root_assoc) {
		error("mfprio: no association data from the database: "
		      "fair-share is off until slurmctld restarts with it");
		calc_fairshare = false;
	}
	_conf_install(_conf_read(calc_fairshare, !slurm_with_slurmdbd()));

	mfp_conf_enter();
	if (mfp_conf.calc_fairshare) {
		assoc_mgr_lock_t locks = { .assoc = WRITE_LOCK };

		/* Slurm shows root's effective usage as 1 */
		assoc_mgr_lock(&locks);
		assoc_mgr_root_assoc->usage->usage_efctv = 1.0L;
		assoc_mgr_unlock(&locks);
		/* jobs may end (and be charged) before the thread starts */
		mfp_decay_prepare();
	}
	mfa_site_factor_init();
	info("mfprio: priority/multifactor loaded (mfprio %s, fair-share %s)",
	     MFPRIO_VERSION, mf_fs_algo_name(mfp_conf.fs.algo));
	mfp_conf_leave();
	return SLURM_SUCCESS;
}

bool mfp_controller(void)
{
	return _controller;
}

void mfp_thread_start(void)
{
	mfp_conf_enter();
	if (_controller && mfp_conf.calc_fairshare && !_thread_started) {
		mfp_decay_start();
		_thread_started = true;
	}
	mfp_conf_leave();
}

void mfp_initial_priorities(void)
{
	slurmctld_lock_t job_write_lock = {
		.job = WRITE_LOCK, .node = READ_LOCK, .part = READ_LOCK };
	mfp_pass_t pass = { .now = time(NULL) };

	mfp_conf_enter();
	if (_controller && !mfp_conf.calc_fairshare) {
		lock_slurmctld(job_write_lock);
		if (job_list)
			list_for_each(job_list, mfp_job_reprioritize, &pass);
		unlock_slurmctld(job_write_lock);
	}
	mfp_conf_leave();
}

void mfp_fini(void)
{
	if (!_controller)
		return;
	/* stops the thread if it runs, frees what mfp_decay_prepare() read */
	mfp_decay_stop();
	_thread_started = false;
	mfp_metrics_fini();
	/* no thread left to recompute: the kept fair-share tree goes */
	mfp_tree_forget();
	mfa_site_factor_fini();
	_conf_install(&_defaults);
	debug("mfprio: priority/multifactor unloaded");
}

uint32_t mfp_set(uint32_t last_prio, job_record_t *job_ptr)
{
	uint32_t prio;

	mfp_conf_enter();
	/* first, so that a new site factor is part of the sum */
	site_factor_g_set(job_ptr);
	prio = mfp_job_priority(job_ptr, time(NULL));
	debug2("mfprio: %pJ priority %u", job_ptr, prio);
	mfp_conf_leave();
	return prio;
}

void mfp_reconfig(bool assoc_clear)
{
	mf_fs_algo_t old_algo;

	if (!_controller)
		return;
	mfp_conf_enter();
	old_algo = mfp_conf.fs.algo;
	_conf_install(_conf_read(mfp_conf.calc_fairshare, false));
	mfp_conf_leave();
	/* from here on, the new settings */
	mfp_conf_enter();
	if (old_algo != mfp_conf.fs.algo)
		info("mfprio: fair-share algorithm %s -> %s",
		     mf_fs_algo_name(old_algo),
		     mf_fs_algo_name(mfp_conf.fs.algo));
	mfp_decay_reconfig();
	/* slurmctld re-added whole time limits to grp_used_tres_run_secs */
	if (assoc_clear)
		mfp_usage_reserve_catch_up(mfp_last_ran());
	if (mfp_conf.calc_fairshare)
		(void) mfp_fairshare_recompute(NULL, NULL);
	mfa_site_factor_reconfig();
	mfp_conf_leave();
	debug2("mfprio: reconfigured");
}

void mfp_set_assoc_usage(slurmdb_assoc_rec_t *assoc)
{
	if (!assoc || !assoc->usage || !assoc_mgr_root_assoc)
		return;
	mfp_conf_enter();
	mfp_tree_set_one(assoc, mfp_conf.fs.algo);
	mfp_conf_leave();
}

void mfp_assoc_fs_factor(slurmdb_assoc_rec_t *assoc)
{
	slurmdb_assoc_rec_t *fs = assoc;

	if (!assoc || !assoc->usage)
		return;
	mfp_conf_enter();
	if (mfp_conf.fs.algo != MF_FS_FAIR_TREE) {
		if (assoc->shares_raw == SLURMDB_FS_USE_PARENT &&
		    assoc->usage->fs_assoc_ptr)
			fs = assoc->usage->fs_assoc_ptr;
		if (!fs->usage || fs->usage->shares_norm <= 0)
			assoc->usage->fs_factor = 0.0;
		else
			assoc->usage->fs_factor = mfp_calc_fs_factor(
				fs->usage->usage_efctv,
				fs->usage->shares_norm);
	}
	mfp_conf_leave();
}

double mfp_calc_fs_factor(long double usage_efctv, long double shares_norm)
{
	double f;

	/* Slurm marks an effective usage not computed yet with NO_VAL */
	if (fuzzy_equal(usage_efctv, NO_VAL))
		return 0.0;
	mfp_conf_enter();
	f = mf_fs_factor(usage_efctv, shares_norm, mfp_conf.fs.damp);
	mfp_conf_leave();
	return f;
}

void mfp_job_end(job_record_t *job_ptr)
{
	if (!_controller || !job_ptr)
		return;
	mfp_conf_enter();
	log_flag(PRIO, "mfprio: %pJ ended", job_ptr);
	mfp_charge_job_end(job_ptr);
	mfp_conf_leave();
}
