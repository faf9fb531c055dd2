/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mfp_settings: the Priority* settings object and its scopes (the contract
 * is in mfp_settings.h).
 *
 * Why these settings do not go through the command's one reader of them
 * (src/input/priority_conf.c, its table of keys, parsers and defaults):
 * slurmctld has read slurm.conf already, refused its bad values at start
 * and applied its own defaults; it hands the plugin numbers and bits
 * (slurm_conf.priority_*), so there is no text left to parse, and a
 * second reading of the file could only disagree with slurmctld's.  The
 * reader is in src/input, which the plugin does not link
 * (tests/build/plugin-no-parsers.sh); what both share is what the values
 * mean, in src/core (decay.h, fs_factor.h, priority.h).
 */
#include <inttypes.h>
#include <math.h>

#include "mfp_settings.h"

#include "src/core/decay.h"
#include "src/core/fs_factor.h"
#include "src/core/metrics.h"

/* Before mfp_init() and after mfp_fini(): defaults, never freed. */
static mfp_conf_t _defaults = {
	.fs = { .algo = MF_FS_FAIR_TREE, .damp = 1 },
	.decay_factor = 1.0,
	.calc_fairshare = true,
	.refs = 1,
};
static pthread_mutex_t _conf_mutex = PTHREAD_MUTEX_INITIALIZER;
static mfp_conf_t *_current = &_defaults;   /* under _conf_mutex */

/*
 * The calling thread's scope: the object it holds and how deep.  In the
 * static TLS block (initial-exec: 16 bytes of glibc's surplus for dlopen'd
 * objects), so no access goes through __tls_get_addr: gcc 12's libtsan
 * guesses the size of each new dynamic TLS block from the 16 bytes before
 * it and, on a wrong guess, maps shadow for a range larger than the
 * address space and kills slurmctld (test-tsan.sh's storm, 1 run in 11).
 */
#define SCOPE_TLS __thread __attribute__((tls_model("initial-exec")))
static SCOPE_TLS const mfp_conf_t *_held;
static SCOPE_TLS unsigned _depth;

static uint32_t _mf_flags(uint32_t slurm_flags);
static mf_tres_set_t *_tres_set(void);
static double *_weight_tres(const mf_tres_set_t *set);
static void _conf_check(const mfp_conf_t *c);
static char *_metrics_file(const char *params);

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
	xfree(c->prio.weight_tres);
	mf_tres_set_free((mf_tres_set_t *) c->prio.tres);
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

void mfp_settings_read(bool calc_fairshare, bool no_dbd_at_start)
{
	mfp_conf_t *c = xmalloc(sizeof(*c));
	mf_prio_config_t *p = &c->prio;
	mf_tres_set_t *tres;
	uint32_t f = slurm_conf.priority_flags;

	c->calc_fairshare = calc_fairshare;

	c->slurm_flags = f;
	p->flags = _mf_flags(f);
	p->release = MFA_CORE_RELEASE;
	c->fs.algo = mf_priority_flags_algo(p->flags);
	/* 22.05 turns Fair Tree off by clearing its bit */
	if (!(f & PRIORITY_FLAGS_FAIR_TREE) && c->fs.algo == MF_FS_FAIR_TREE)
		c->fs.algo = MF_FS_CLASSIC;
	c->fs.damp = slurm_conf.fs_dampening_factor ?
		slurm_conf.fs_dampening_factor : 1;

	p->weight_age = slurm_conf.priority_weight_age;
	p->weight_assoc = slurm_conf.priority_weight_assoc;
	p->weight_fs = slurm_conf.priority_weight_fs;
	p->weight_js = slurm_conf.priority_weight_js;
	p->weight_part = slurm_conf.priority_weight_part;
	p->weight_qos = slurm_conf.priority_weight_qos;
	p->max_age = slurm_conf.priority_max_age;
	p->favor_small = slurm_conf.priority_favor_small;

	tres = _tres_set();
	p->tres = tres;
	p->weight_tres = _weight_tres(tres);

	c->half_life = slurm_conf.priority_decay_hl;
	c->decay_factor = mf_decay_factor(c->half_life);
	c->calc_period = slurm_conf.priority_calc_period;
	c->reset_period = slurm_conf.priority_reset_period;
	c->state_dir = xstrdup(slurm_conf.state_save_location);
	c->cluster = xstrdup(slurm_conf.cluster_name);
	c->metrics_file = _metrics_file(slurm_conf.priority_params);
	_conf_check(c);

	if (no_dbd_at_start)
		p->weight_age = 0;
	/* no fair-share computed: its term is 0 whatever the weight */
	if (no_dbd_at_start || !c->calc_fairshare)
		p->weight_fs = 0;
	log_flag(PRIO, "mfprio: fair-share %s, damp %u, weights age %u assoc "
		 "%u fs %u js %u part %u qos %u, max age %u, half-life %u s, "
		 "period %u s, flags 0x%x", mf_fs_algo_name(c->fs.algo),
		 c->fs.damp, p->weight_age, p->weight_assoc, p->weight_fs,
		 p->weight_js, p->weight_part, p->weight_qos, p->max_age,
		 c->half_life, c->calc_period, f);
	_conf_install(c);
}


void mfp_settings_client(void)
{
	mfp_conf_t *c = xmalloc(sizeof(*c));

	*c = _defaults;
	c->fs.damp = slurm_conf.fs_dampening_factor ?
		slurm_conf.fs_dampening_factor : 1;
	_conf_install(c);
}

void mfp_settings_reset(void)
{
	_conf_install(&_defaults);
}

/*
 * The metrics file PARAMS (slurm.conf's PriorityParameters, may be NULL)
 * names, as a new string (xfree), or NULL: none, or a malformed value,
 * which is logged as an error naming the key and what is wrong (the
 * controller goes on, without a metrics file).  Other items of PARAMS are
 * not looked at.
 */
static char *_metrics_file(const char *params)
{
	char *v = NULL, *ret;
	mf_error_t e;
	int rc = mf_metrics_param(params, MF_METRICS_PARAM, &v, &e);

	if (rc < 0) {
		error("mfprio: %s; no metrics file is written", e.text);
		return NULL;
	}
	if (!rc)
		return NULL;
	ret = xstrdup(v);
	g_free(v);
	log_flag(PRIO, "mfprio: metrics file %s", ret);
	return ret;
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
