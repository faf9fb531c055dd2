/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mfprio replay: a period of history (sacct_input.h) replayed tick by tick
 * (replay.h) under two settings, "before" (the snapshot's slurm.conf and
 * association tree) and "after" (with --set, --flags, --damp and --share),
 * side by side: each user association's fair-share factor over time, and
 * each job's priority and rank at the last tick before it started.
 *
 * A job of an association the snapshot lacks is charged to its account
 * when the tree has it, else to root, with one warning per association
 * (its jobs' fair-share factor is then the account's, 0 under Fair Tree).
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "cmd.h"
#include "cmd_error.h"
#include "slurm_release.h"
#include "input_opts.h"
#include "jobs_input.h"
#include "json_out.h"
#include "priority.h"
#include "priority_conf.h"
#include "priority_flags.h"
#include "replay.h"
#include "sacct_input.h"
#include "slurm_conf.h"
#include "snapshot.h"
#include "snapshot_dir.h"
#include "timestr.h"

static const char _usage_head[] =
"Usage: mfprio replay --snapshot DIR | --conf FILE --assoc FILE [--qos FILE]\n"
"                     [--from TIME] [--to TIME] [--cluster NAME]\n"
"                     [--set KEY=VALUE]... [--flags FLAGS] [--damp N]\n"
"                     [--share ACCOUNT[/USER]=N]... [--charge-at-end y|n]\n"
"                     [--table series|final|jobs|users] [--json]\n"
"                     [--svg FILE] [--show NAME,...] [--top N]\n"
"                     [--every N] SACCT_FILE\n"
"\n"
"Replay the period of SACCT_FILE, dumped by\n"
"  " MF_SACCT_CMD "\n"
"tick by tick (every PriorityCalcPeriod) as the multifactor plugin computes\n"
"it: each association's decayed usage (running jobs charged their billing\n"
"each tick), fair-share, and the priority of the jobs pending at each tick;\n"
"once with the snapshot's settings (before), once with the what-ifs\n"
"(after: --set, --flags, --damp, --share).  Usage is zero at the period's\n"
"start.  Of a snapshot, its slurm.conf, assoc and qos are read.\n"
"\n"
"The schedule is replayed as it happened: a job that would have started\n"
"earlier under the other settings would also have changed who ran after\n"
"it, and the replay does not simulate that.\n"
"\n";

static const char _usage_own[] =
"  --from TIME        the first tick (default: the earliest start or\n"
"                     eligible time of the records)\n"
"  --to TIME          no tick after it (default: the latest time in them)\n"
"  --damp N           FairShareDampeningFactor of \"after\"\n"
"  --share ACCOUNT=N, --share ACCOUNT/USER=N  the raw shares of an\n"
"                     association in \"after\" (repeatable)\n"
"  --charge-at-end y|n  charge a job when it ends, as slurmctld does with\n"
"                     AccountingStorageEnforce=limits (default: from the\n"
"                     conf), rather than at the next tick\n"
"  --table KIND       series (default): time,account,user and each side's\n"
"                     fair-share factor and usage, per sample; final: every\n"
"                     association at the last tick; jobs: each job's\n"
"                     priority and rank when it started; users: the jobs'\n"
"                     ranks summarized per user and account\n"
"  --json             all four tables as one JSON object\n"
"  --svg FILE         the fair-share factors over time, as lines (- stdout)\n"
"  --show NAMES       the series of these ACCOUNT (its users) or\n"
"                     ACCOUNT/USER only\n"
"  --top N            the series of the N user associations that move most\n"
"                     (largest difference between the sides; --svg's\n"
"                     default: 6)\n"
"  --every N          a series sample every N ticks (default: about 500\n"
"                     samples in all)\n"
"  -h, --help         this text\n";

#define _MASK (MF_IOPT_BIT(SNAPSHOT) | MF_IOPT_BIT(CONF) | MF_IOPT_BIT(ASSOC) | \
	       MF_IOPT_BIT(QOS) | MF_IOPT_BIT(CLUSTER) | MF_IOPT_BIT(SET) | \
	       MF_IOPT_BIT(FLAGS))

/* --help: the command, its input options (input_opts.def), its own. */
static void _usage(FILE *out)
{
	mf_iopt_usage(out, _usage_head, _MASK, _usage_own);
}

enum { OPT_FROM = 300, OPT_TO, OPT_DAMP, OPT_SHARE,
       OPT_AT_END, OPT_TABLE, OPT_JSON, OPT_SVG, OPT_SHOW, OPT_TOP,
       OPT_EVERY };

static const char _not_simulated[] =
	"the schedule is replayed as it happened: no job starts earlier or "
	"later under the other settings (no re-simulation)";

/* One side's settings, tree and results. */
typedef struct {
	mf_prio_conf_t *pc;
	mf_prio_config_t cfg;
	mf_replay_conf_t rc;
	mf_tree_t *tree;
	mf_assoc_t **assoc;          /* per history association */
	const mf_part_t **part;      /* per history partition (NULL: none) */
	uint32_t *qos_prio;          /* per history QOS */
	mf_replay_out_t *out;        /* per job */
	long ticks;
	const GPtrArray *users;      /* the context's */
	const mf_sacct_t *h;
	/* samples: every EVERY-th tick and the last */
	uint32_t every;
	time_t from, to;
	int status;                  /* the run's exit status */
	GArray *times;               /* time_t */
	GArray *fs;                  /* float, users x samples */
	GArray *usage;               /* double, users x samples */
	/* _price()'s job and result, set up once: it runs for every job
	 * pending at every tick (hundreds of millions of times in a year) */
	mf_prio_job_t pj;
	mf_prio_result_t pr;
} _side_t;

typedef struct {
	mf_sacct_t *h;
	GPtrArray *users;            /* positions in tree->order of the
				      * user associations (the same in both
				      * trees) */
	_side_t s[2];
} _ctx_t;

/* --- settings -------------------------------------------------------- */

static bool _at_end_of(const mf_conf_t *conf)
{
	const mf_conf_pair_t *p = mf_conf_get(conf, "AccountingStorageEnforce");
	char **w;
	bool yes = false;

	if (!p)
		return false;
	w = g_strsplit(p->value, ",", -1);
	for (int i = 0; w[i]; i++) {
		char *x = g_strstrip(w[i]);

		if (!g_ascii_strcasecmp(x, "limits") ||
		    !g_ascii_strcasecmp(x, "safe") ||
		    !g_ascii_strcasecmp(x, "qos") ||
		    !g_ascii_strcasecmp(x, "all"))
			yes = true;
	}
	g_strfreev(w);
	return yes;
}

/* Read the conf with SETS (may be NULL) into S.  Returns an exit status. */
static int _settings(_side_t *s, const char *path, const mf_conf_t *sets,
		     int at_end, bool quiet, char **cluster)
{
	mf_cmd_release_t rel = { 0 };
	mf_conf_t *conf;
	mf_error_t e;

	if (!(conf = mf_conf_load(path, &e))) {
		mf_cmd_error("%s", e.text);
		return MF_EXIT_INPUT;
	}
	if (cluster && !*cluster) {
		const mf_conf_pair_t *cn = mf_conf_get(conf, "ClusterName");

		*cluster = g_strdup(cn ? cn->value : NULL);
	}
	for (guint i = 0; sets && i < sets->globals->len; i++) {
		const mf_conf_pair_t *p = sets->globals->pdata[i];

		mf_conf_set(conf, p->key, p->value, p->file, p->line);
	}
	s->pc = mf_prio_conf_read(conf, &e);
	if (s->pc)
		mf_cmd_release_detect(&rel, conf, path);
	s->rc.charge_at_end = at_end < 0 ? _at_end_of(conf) : at_end;
	mf_conf_free(conf);
	if (!s->pc) {
		mf_cmd_error("%s", e.text);
		mf_cmd_release_clear(&rel);
		return MF_EXIT_INPUT;
	}
	for (guint i = 0; i < s->pc->warnings->len; i++) {
		const char *w = s->pc->warnings->pdata[i];

		if (!quiet || g_str_has_prefix(w, "--set"))
			fprintf(stderr, "mfprio: warning: %s\n", w);
	}
	mf_prio_conf_to_config(s->pc, &s->cfg);
	s->cfg.release = rel.release;
	mf_cmd_release_clear(&rel);
	s->rc.calc_period = s->pc->calc_period ? s->pc->calc_period : 60;
	s->rc.half_life = s->pc->decay_half_life;
	s->rc.reset = s->pc->reset_period;
	s->rc.fs.algo = mf_priority_flags_algo(s->pc->flags);
	s->rc.fs.damp = s->pc->fs_damp;
	return MF_EXIT_OK;
}

/* --share ARG into the finalized TREE: its raw shares, and the level
 * shares of its siblings redone.  Returns 0, or -1 after printing why. */
static int _share(mf_tree_t *tree, const char *arg)
{
	const char *eq = strchr(arg, '=');
	char *name, *slash, *end;
	unsigned long v;
	mf_assoc_t *a, *p;
	uint32_t sum = 0;

	if (!eq || eq == arg) {
		mf_cmd_error("--share '%s': not ACCOUNT=N or ACCOUNT/USER=N",
			     arg);
		return -1;
	}
	v = strtoul(eq + 1, &end, 10);
	if (!g_ascii_isdigit(eq[1]) || *end || v >= MF_SHARES_PARENT) {
		mf_cmd_error("--share '%s': the shares are not a whole number "
			     "(FairShare=parent is not taken here)", arg);
		return -1;
	}
	name = g_strndup(arg, (gsize)(eq - arg));
	slash = strchr(name, '/');
	if (slash) {
		*slash = '\0';
		a = mf_tree_find_user(tree, name, slash + 1);
	} else {
		a = mf_tree_find_account(tree, name);
	}
	if (!a || !a->fs_parent || mf_assoc_is_parent_fs(a)) {
		mf_cmd_error("--share '%s': %s", arg, !a ?
			     "no such association in the snapshot" :
			     "root's and FairShare=parent associations' "
			     "shares are not changed here");
		g_free(name);
		return -1;
	}
	g_free(name);
	a->shares_raw = (uint32_t)v;
	p = a->fs_parent;
	for (guint j = 0; j < p->fs_children->len; j++) {
		mf_assoc_t *c = p->fs_children->pdata[j];

		if (!mf_assoc_is_parent_fs(c))
			sum += c->shares_raw;
	}
	for (guint j = 0; j < p->fs_children->len; j++)
		((mf_assoc_t *)p->fs_children->pdata[j])->level_shares = sum;
	return 0;
}

/* The associations the history's jobs are charged to in S's tree; warns
 * once per missing one when WARN.  */
static void _map_assocs(_side_t *s, const mf_sacct_t *h, bool warn)
{
	uint32_t n = h->acct->len;
	uint32_t *first_line = g_new0(uint32_t, n ? n : 1);

	for (guint i = 0; i < h->jobs->len; i++) {
		const mf_replay_job_t *j = &g_array_index(h->jobs,
							  mf_replay_job_t, i);

		if (!first_line[j->assoc])
			first_line[j->assoc] = j->line;
	}
	s->assoc = g_new0(mf_assoc_t *, n ? n : 1);
	for (uint32_t i = 0; i < n; i++) {
		const char *acct = h->acct->pdata[i];
		const char *user = h->user->pdata[i];
		mf_assoc_t *a = mf_tree_find_job_assoc(s->tree, acct, user,
						       h->assoc_part->pdata[i]);

		if (!a) {
			a = mf_tree_find_account(s->tree, acct);
			if (!a)
				a = s->tree->root;
			if (warn)
				fprintf(stderr, "mfprio: warning: %s:%u: "
					"user %s in account %s is not in the "
					"snapshot's association tree: its "
					"jobs' usage is counted to account %s\n",
					h->path, first_line[i], user, acct,
					a->acct);
		}
		s->assoc[i] = a;
	}
	g_free(first_line);
}

static void _map_parts_qos(_side_t *s, const mf_sacct_t *h, GHashTable *qos)
{
	s->part = g_new0(const mf_part_t *, h->part->len ? h->part->len : 1);
	for (guint i = 0; i < h->part->len; i++) {
		const char *name = h->part->pdata[i];
		/* a job queued in several partitions shows them all, the one
		 * it ran in first once it started: take the first */
		char *first = g_strndup(name, strcspn(name, ","));
		const mf_conf_part_t *cp = mf_prio_conf_find_part(s->pc,
								   first);

		s->part[i] = cp ? &cp->part : NULL;
		g_free(first);
	}
	s->qos_prio = g_new0(uint32_t, h->qos->len ? h->qos->len : 1);
	for (guint i = 0; qos && i < h->qos->len; i++)
		s->qos_prio[i] = GPOINTER_TO_UINT(
			g_hash_table_lookup(qos, h->qos->pdata[i]));
}

/* --- the replay ------------------------------------------------------ */

static uint32_t _price(const mf_replay_job_t *j, double fs, time_t now,
		       void *arg)
{
	_side_t *s = arg;
	mf_prio_job_t *pj = &s->pj;

	/* the fields of a job; the others stay as _price_init() set them
	 * (mf_priority_compute() does not write the job, and sets every
	 * field of a bound result) */
	pj->job_id = j->job_id;
	pj->min_nodes = j->nodes;
	pj->cpu_cnt = j->cpus;
	pj->qos_priority = s->qos_prio[j->qos];
	pj->submit_time = (time_t)j->submit;
	pj->begin_time = (time_t)j->eligible;
	pj->accrue_time = (s->pc->flags & MF_FLAG_ACCRUE_ALWAYS) &&
			  j->submit ? (time_t)j->submit : (time_t)j->eligible;
	pj->part = s->part[j->part];
	pj->fs_factor = fs;
	return mf_priority_compute(&s->cfg, pj, now, &s->pr);
}

static void _price_init(_side_t *s)
{
	memset(&s->pj, 0, sizeof(s->pj));
	s->pj.time_limit = MF_NO_VAL;
	s->pj.has_qos = true;
	mf_prio_result_bind(&s->pr, 0, NULL);
}

static void _on_tick(time_t now, uint32_t tick, const mf_tree_t *tree,
		     void *arg)
{
	_side_t *s = arg;

	(void)tick;
	g_array_append_val(s->times, now);
	for (guint u = 0; u < s->users->len; u++) {
		const mf_assoc_t *a = tree->order->pdata[
			GPOINTER_TO_UINT(s->users->pdata[u])];
		float f = (float)mf_replay_job_fs(a, &s->rc.fs);
		double us = (double)a->usage_raw;

		g_array_append_val(s->fs, f);
		g_array_append_val(s->usage, us);
	}
}

/* Replay side S (a GThreadFunc: the two sides run side by side, each on
 * its own tree; only the history is shared, read-only). */
static gpointer _run(gpointer arg)
{
	_side_t *s = arg;
	const mf_sacct_t *h = s->h;
	mf_replay_t r = {
		.conf = &s->rc, .tree = s->tree,
		.assoc = s->assoc, .assoc_cnt = h->acct->len,
		.jobs = (const mf_replay_job_t *)(void *)h->jobs->data,
		.job_cnt = h->jobs->len, .first = s->from, .last = s->to,
		.price = _price, .on_tick = _on_tick, .arg = s,
		.sample_every = s->every,
	};
	mf_error_t e;

	_price_init(s);
	if (mf_replay_run(&r, s->out, &e) < 0) {
		mf_cmd_error("%s", e.text);
		s->status = MF_EXIT_INPUT;
	}
	return NULL;
}

/* Ready side S to replay [FROM, TO]. */
static void _prepare(_ctx_t *c, _side_t *s, time_t from, time_t to,
		     uint32_t every)
{
	s->h = c->h;
	s->users = c->users;
	s->from = from;
	s->to = to;
	s->ticks = (long)((to - from) / s->rc.calc_period) + 1;
	s->every = every ? every : (uint32_t)(s->ticks / 500 + 1);
	s->out = g_new(mf_replay_out_t, c->h->jobs->len ? c->h->jobs->len : 1);
	s->times = g_array_new(FALSE, FALSE, sizeof(time_t));
	s->fs = g_array_new(FALSE, FALSE, sizeof(float));
	s->usage = g_array_new(FALSE, FALSE, sizeof(double));
}

/* --- output ---------------------------------------------------------- */

static const mf_assoc_t *_user(const _ctx_t *c, int side, guint u)
{
	return c->s[side].tree->order->pdata[
		GPOINTER_TO_UINT(c->users->pdata[u])];
}

/* The sample of side 1 in force at side 0's sample K: the latest at or
 * before its time (the first if none). */
static guint _after_sample(const _ctx_t *c, guint k, guint *cursor)
{
	const GArray *t0 = c->s[0].times, *t1 = c->s[1].times;
	time_t t = g_array_index(t0, time_t, k);

	while (*cursor + 1 < t1->len &&
	       g_array_index(t1, time_t, *cursor + 1) <= t)
		(*cursor)++;
	return *cursor;
}

static float _fs_at(const _side_t *s, guint users, guint k, guint u)
{
	return g_array_index(s->fs, float, (gsize)k * users + u);
}

static double _usage_at(const _side_t *s, guint users, guint k, guint u)
{
	return g_array_index(s->usage, double, (gsize)k * users + u);
}

/* Which user associations the series shows: SHOW's names, else the TOP
 * that move most (the largest mean difference between the sides over the
 * samples, one user an account: lines of one account tend to move
 * together), else all.  A new array of bools. */
static bool *_selected(const _ctx_t *c, char **show, int top)
{
	guint n = c->users->len, ns = c->s[0].times->len;
	bool *sel = g_new0(bool, n ? n : 1);

	if (show) {
		for (guint u = 0; u < n; u++) {
			const mf_assoc_t *a = _user(c, 0, u);

			for (int i = 0; show[i]; i++) {
				char *slash = strchr(show[i], '/');

				if (slash ? (!strncmp(show[i], a->acct,
						      (size_t)(slash - show[i])) &&
					     !a->acct[slash - show[i]] &&
					     !strcmp(slash + 1, a->user)) :
				    !strcmp(show[i], a->acct))
					sel[u] = true;
			}
		}
		return sel;
	}
	if (top <= 0) {
		for (guint u = 0; u < n; u++)
			sel[u] = true;
		return sel;
	}
	{
		double *move = g_new0(double, n ? n : 1);
		guint cur = 0;

		for (guint k = 0; k < ns; k++) {
			guint k1 = _after_sample(c, k, &cur);

			for (guint u = 0; u < n; u++) {
				move[u] += fabs((double)_fs_at(&c->s[0], n, k, u) -
						(double)_fs_at(&c->s[1], n, k1, u));
			}
		}
		for (int t = 0; t < top; t++) {
			gint best = -1;

			for (guint u = 0; u < n; u++) {
				bool taken = false;

				if (sel[u] || (best >= 0 && move[u] <= move[best]))
					continue;
				for (guint v = 0; v < n && !taken; v++)
					taken = sel[v] && !strcmp(_user(c, 0, v)->acct,
								  _user(c, 0, u)->acct);
				if (!taken)
					best = (gint)u;
			}
			if (best < 0)
				break;
			sel[best] = true;
		}
		g_free(move);
	}
	return sel;
}

static void _time_str(time_t t, char *buf, size_t len)
{
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
}

static void _csv_series(const _ctx_t *c, const bool *sel, FILE *out)
{
	guint n = c->users->len, cur = 0;
	char tb[32];

	fprintf(out, "time,account,user,fs_before,fs_after,usage_before,"
		"usage_after\n");
	for (guint k = 0; k < c->s[0].times->len; k++) {
		guint k1 = _after_sample(c, k, &cur);

		_time_str(g_array_index(c->s[0].times, time_t, k), tb,
			  sizeof(tb));
		for (guint u = 0; u < n; u++) {
			const mf_assoc_t *a = _user(c, 0, u);

			if (!sel[u])
				continue;
			fprintf(out, "%s,%s,%s,%.6f,%.6f,%.0f,%.0f\n", tb,
				a->acct, a->user, _fs_at(&c->s[0], n, k, u),
				_fs_at(&c->s[1], n, k1, u),
				_usage_at(&c->s[0], n, k, u),
				_usage_at(&c->s[1], n, k1, u));
		}
	}
}

static void _csv_final(const _ctx_t *c, FILE *out)
{
	const mf_tree_t *t0 = c->s[0].tree, *t1 = c->s[1].tree;

	fprintf(out, "account,user,usage_before,fs_before,usage_after,"
		"fs_after\n");
	for (guint i = 0; i < t0->order->len; i++) {
		const mf_assoc_t *a = t0->order->pdata[i];
		const mf_assoc_t *b = t1->order->pdata[i];
		double fa = a->user ? mf_replay_job_fs(a, &c->s[0].rc.fs) :
			    a->fs_factor;
		double fb = b->user ? mf_replay_job_fs(b, &c->s[1].rc.fs) :
			    b->fs_factor;

		fprintf(out, "%s,%s,%.2Lf,", a->acct, a->user ? a->user : "",
			a->usage_raw);
		if (!isnan(fa))
			fprintf(out, "%.6f", fa);
		fprintf(out, ",%.2Lf,", b->usage_raw);
		if (!isnan(fb))
			fprintf(out, "%.6f", fb);
		fputc('\n', out);
	}
}

static const char *_acct_of(const _ctx_t *c, const mf_replay_job_t *j)
{
	return c->h->acct->pdata[j->assoc];
}

static const char *_user_of(const _ctx_t *c, const mf_replay_job_t *j)
{
	return c->h->user->pdata[j->assoc];
}

static void _csv_jobs(const _ctx_t *c, FILE *out)
{
	char tb[32];

	fprintf(out, "job_id,account,user,partition,start,pending,"
		"priority_before,rank_before,priority_after,rank_after\n");
	for (guint i = 0; i < c->h->jobs->len; i++) {
		const mf_replay_job_t *j = &g_array_index(c->h->jobs,
							  mf_replay_job_t, i);
		const mf_replay_out_t *b = &c->s[0].out[i], *a = &c->s[1].out[i];

		if (!b->rank && !a->rank)
			continue;
		_time_str((time_t)j->start, tb, sizeof(tb));
		fprintf(out, "%u,%s,%s,%s,%s,%u,%u,%u,%u,%u\n", j->job_id,
			_acct_of(c, j), _user_of(c, j),
			(const char *)c->h->part->pdata[j->part], tb,
			b->pending, b->priority, b->rank, a->priority,
			a->rank);
	}
}

/* Per user in an account (the history's association of its first job
 * there: its partitions summed): its ranked jobs, rank sums and moves. */
typedef struct {
	uint32_t jobs, ahead, behind;
	double rank[2], prio[2];
} _usum_t;

/* The first history association of each one's account and user. */
static uint32_t *_user_keys(const _ctx_t *c)
{
	guint n = c->h->acct->len;
	uint32_t *key = g_new(uint32_t, n ? n : 1);
	GHashTable *seen = g_hash_table_new_full(g_str_hash, g_str_equal,
						 g_free, NULL);

	for (guint i = 0; i < n; i++) {
		char *k = g_strconcat(c->h->acct->pdata[i], "\n",
				      c->h->user->pdata[i], NULL);
		gpointer v;

		if (g_hash_table_lookup_extended(seen, k, NULL, &v)) {
			key[i] = GPOINTER_TO_UINT(v);
			g_free(k);
		} else {
			key[i] = i;
			g_hash_table_insert(seen, k, GUINT_TO_POINTER(i));
		}
	}
	g_hash_table_destroy(seen);
	return key;
}

static _usum_t *_user_sums(const _ctx_t *c)
{
	guint n = c->h->acct->len;
	_usum_t *sum = g_new0(_usum_t, n ? n : 1);
	uint32_t *key = _user_keys(c);

	for (guint i = 0; i < c->h->jobs->len; i++) {
		const mf_replay_job_t *j = &g_array_index(c->h->jobs,
							  mf_replay_job_t, i);
		const mf_replay_out_t *b = &c->s[0].out[i], *a = &c->s[1].out[i];
		_usum_t *u = &sum[key[j->assoc]];

		if (!b->rank || !a->rank)
			continue;
		u->jobs++;
		u->rank[0] += b->rank;
		u->rank[1] += a->rank;
		u->prio[0] += b->priority;
		u->prio[1] += a->priority;
		if (a->rank < b->rank)
			u->ahead++;
		else if (a->rank > b->rank)
			u->behind++;
	}
	g_free(key);
	return sum;
}

static void _csv_users(const _ctx_t *c, FILE *out)
{
	_usum_t *sum = _user_sums(c);

	fprintf(out, "account,user,jobs,mean_rank_before,"
		"mean_rank_after,ahead,behind,mean_priority_before,"
		"mean_priority_after\n");
	for (guint i = 0; i < c->h->acct->len; i++) {
		const _usum_t *u = &sum[i];

		if (!u->jobs)
			continue;
		fprintf(out, "%s,%s,%u,%.2f,%.2f,%u,%u,%.1f,%.1f\n",
			(const char *)c->h->acct->pdata[i],
			(const char *)c->h->user->pdata[i], u->jobs,
			u->rank[0] / u->jobs, u->rank[1] / u->jobs, u->ahead,
			u->behind, u->prio[0] / u->jobs, u->prio[1] / u->jobs);
	}
	g_free(sum);
}

static void _json_side(mf_json_t *j, const char *key, const _side_t *s)
{
	mf_json_begin_object(j, key);
	mf_json_string(j, "fairshare", mf_fs_algo_name(s->rc.fs.algo));
	mf_json_uint(j, "damp", s->rc.fs.damp);
	mf_json_uint(j, "calc_period", s->rc.calc_period);
	mf_json_uint(j, "half_life", s->rc.half_life);
	mf_json_string(j, "reset_period", mf_reset_period_name(s->rc.reset));
	mf_json_bool(j, "charge_at_end", s->rc.charge_at_end);
	mf_json_int(j, "ticks", s->ticks);
	mf_json_end_object(j);
}

/* The "series" array: for each user SEL selects, the fair-share factor
 * before and after at each sample.  Returns nothing. */
static void _json_series(mf_json_t *j, const _ctx_t *c, const bool *sel)
{
	guint n = c->users->len;

	mf_json_begin_array(j, "series");
	for (guint u = 0; u < n; u++) {
		const mf_assoc_t *a = _user(c, 0, u);
		guint cur = 0;

		if (!sel[u])
			continue;
		mf_json_begin_object(j, NULL);
		mf_json_string(j, "account", a->acct);
		mf_json_string(j, "user", a->user);
		mf_json_begin_array(j, "time");
		for (guint k = 0; k < c->s[0].times->len; k++)
			mf_json_int(j, NULL, (int64_t)g_array_index(
				c->s[0].times, time_t, k));
		mf_json_end_array(j);
		for (int side = 0; side < 2; side++) {
			mf_json_begin_array(j, side ? "fs_after" :
					    "fs_before");
			cur = 0;
			for (guint k = 0; k < c->s[0].times->len; k++) {
				guint kk = side ? _after_sample(c, k, &cur) : k;

				mf_json_double(j, NULL, (double)_fs_at(
					&c->s[side], n, kk, u));
			}
			mf_json_end_array(j);
		}
		mf_json_end_object(j);
	}
	mf_json_end_array(j);
}

/* The "final" array: every association's usage and fair-share factor
 * at the end, before and after.  Returns nothing. */
static void _json_final(mf_json_t *j, const _ctx_t *c)
{
	mf_json_begin_array(j, "final");
	for (guint i = 0; i < c->s[0].tree->order->len; i++) {
		mf_json_begin_object(j, NULL);
		for (int side = 0; side < 2; side++) {
			const mf_assoc_t *a = c->s[side].tree->order->pdata[i];
			double f = a->user ?
				   mf_replay_job_fs(a, &c->s[side].rc.fs) :
				   a->fs_factor;

			if (!side) {
				mf_json_string(j, "account", a->acct);
				mf_json_string(j, "user", a->user);
			}
			mf_json_double(j, side ? "usage_after" :
				       "usage_before", (double)a->usage_raw);
			mf_json_double(j, side ? "fs_after" : "fs_before", f);
		}
		mf_json_end_object(j);
	}
	mf_json_end_array(j);
}

/* The "jobs" array: each job ranked on either side, with its priority
 * and rank before and after.  Returns nothing. */
static void _json_jobs(mf_json_t *j, const _ctx_t *c)
{
	mf_json_begin_array(j, "jobs");
	for (guint i = 0; i < c->h->jobs->len; i++) {
		const mf_replay_job_t *jb = &g_array_index(c->h->jobs,
							   mf_replay_job_t, i);
		const mf_replay_out_t *b = &c->s[0].out[i], *a = &c->s[1].out[i];

		if (!b->rank && !a->rank)
			continue;
		mf_json_begin_object(j, NULL);
		mf_json_uint(j, "job_id", jb->job_id);
		mf_json_string(j, "account", _acct_of(c, jb));
		mf_json_string(j, "user", _user_of(c, jb));
		mf_json_int(j, "start", jb->start);
		mf_json_uint(j, "pending", b->pending);
		mf_json_uint(j, "priority_before", b->priority);
		mf_json_uint(j, "rank_before", b->rank);
		mf_json_uint(j, "priority_after", a->priority);
		mf_json_uint(j, "rank_after", a->rank);
		mf_json_end_object(j);
	}
	mf_json_end_array(j);
}

/* The "users" array: each user's jobs, mean ranks and how many jobs
 * moved ahead or behind.  Returns nothing. */
static void _json_users(mf_json_t *j, const _ctx_t *c)
{
	_usum_t *sum = _user_sums(c);

	mf_json_begin_array(j, "users");
	for (guint i = 0; i < c->h->acct->len; i++) {
		const _usum_t *u = &sum[i];

		if (!u->jobs)
			continue;
		mf_json_begin_object(j, NULL);
		mf_json_string(j, "account", c->h->acct->pdata[i]);
		mf_json_string(j, "user", c->h->user->pdata[i]);
		mf_json_uint(j, "jobs", u->jobs);
		mf_json_double(j, "mean_rank_before", u->rank[0] / u->jobs);
		mf_json_double(j, "mean_rank_after", u->rank[1] / u->jobs);
		mf_json_uint(j, "ahead", u->ahead);
		mf_json_uint(j, "behind", u->behind);
		mf_json_end_object(j);
	}
	mf_json_end_array(j);
	g_free(sum);
}

/* The replay C of FROM to TO as JSON, the series of the users SEL
 * selects.  Returns nothing. */
static void _json(const _ctx_t *c, const bool *sel, time_t from, time_t to,
		  FILE *out)
{
	mf_json_t j;

	mf_json_init(&j, out);
	mf_json_begin_object(&j, NULL);
	mf_json_string(&j, "note", _not_simulated);
	mf_json_string(&j, "history", c->h->path);
	mf_json_int(&j, "from", (int64_t)from);
	mf_json_int(&j, "to", (int64_t)to);
	_json_side(&j, "before", &c->s[0]);
	_json_side(&j, "after", &c->s[1]);

	_json_series(&j, c, sel);
	_json_final(&j, c);
	_json_jobs(&j, c);
	_json_users(&j, c);
	mf_json_end_object(&j);
	mf_json_finish(&j);
}

/* TEXT with XML's special characters escaped. */
static void _xml_text(FILE *out, const char *text)
{
	for (const char *p = text; *p; p++) {
		switch (*p) {
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '&': fputs("&amp;", out); break;
		case '"': fputs("&quot;", out); break;
		default: fputc(*p, out);
		}
	}
}

#define SVG_W 860.0
#define SVG_H 420.0
#define SVG_L 60.0
#define SVG_R 200.0
#define SVG_T 40.0
#define SVG_B 50.0

/* The SVG's opening, its axes and the first and last sample times T0 at
 * their ends.  Returns nothing. */
static void _svg_axes(FILE *out, const GArray *t0)
{
	guint ns = t0->len;
	double pw = SVG_W - SVG_L - SVG_R, ph = SVG_H - SVG_T - SVG_B;
	char tb[32];

	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
		"height=\"%.0f\" font-family=\"sans-serif\" font-size=\"12\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
		"<text x=\"%.0f\" y=\"20\" font-size=\"14\">fair-share factor "
		"over time: before (dashed), after (solid)</text>\n",
		SVG_W, SVG_H, SVG_L);
	fprintf(out, "<g stroke=\"#999\">"
		"<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\"/>"
		"<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\"/></g>\n",
		SVG_L, SVG_T, SVG_L, SVG_T + ph, SVG_L, SVG_T + ph, SVG_L + pw,
		SVG_T + ph);
	for (int y = 0; y <= 4; y++)
		fprintf(out, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\">"
			"%.2f</text>\n", SVG_L - 6, SVG_T + ph - ph * y / 4 + 4,
			y / 4.0);
	if (ns) {
		_time_str(g_array_index(t0, time_t, 0), tb, sizeof(tb));
		fprintf(out, "<text x=\"%.0f\" y=\"%.0f\">%s</text>\n", SVG_L,
			SVG_T + ph + 20, tb);
		_time_str(g_array_index(t0, time_t, ns - 1), tb, sizeof(tb));
		fprintf(out, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\">"
			"%s</text>\n", SVG_L + pw, SVG_T + ph + 20, tb);
	}
}

/* The lines of user U's fair-share factor before (dashed) and after, in
 * colour COL, and its name as the SHOWN-th in the key.  Returns
 * nothing. */
static void _svg_user(FILE *out, const _ctx_t *c, guint u, const char *col,
		      int shown)
{
	const GArray *t0 = c->s[0].times;
	const mf_assoc_t *a = _user(c, 0, u);
	guint n = c->users->len, ns = t0->len;
	double pw = SVG_W - SVG_L - SVG_R, ph = SVG_H - SVG_T - SVG_B;
	double tmin = ns ? (double)g_array_index(t0, time_t, 0) : 0;
	double tspan = ns > 1 ?
		       (double)g_array_index(t0, time_t, ns - 1) - tmin : 1;

	for (int side = 0; side < 2; side++) {
		guint cur = 0;

		fprintf(out, "<polyline fill=\"none\" stroke=\"%s\" "
			"stroke-width=\"1.5\"%s points=\"", col,
			side ? "" : " stroke-dasharray=\"5,3\"");
		for (guint k = 0; k < ns; k++) {
			guint kk = side ? _after_sample(c, k, &cur) : k;
			double x = SVG_L + pw *
				((double)g_array_index(t0, time_t, k) -
				 tmin) / tspan;
			double y = SVG_T + ph - ph *
				(double)_fs_at(&c->s[side], n, kk, u);

			fprintf(out, "%.1f,%.1f ", x, y);
		}
		fprintf(out, "\"/>\n");
	}
	fprintf(out, "<text x=\"%.0f\" y=\"%.0f\" fill=\"%s\">", SVG_L +
		pw + 10, SVG_T + 16.0 * shown + 10, col);
	_xml_text(out, a->acct);
	fputc('/', out);
	_xml_text(out, a->user);
	fprintf(out, "</text>\n");
}

/* The fair-share factors of the users SEL selects over time, before and
 * after, as SVG to PATH ("-": stdout).  Returns an exit status. */
static int _svg(const _ctx_t *c, const bool *sel, const char *path)
{
	static const char *const colors[] = {
		"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
		"#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf" };
	FILE *out = strcmp(path, "-") ? fopen(path, "w") : stdout;
	int shown = 0;

	if (!out) {
		mf_cmd_error("--svg %s: cannot write it", path);
		return MF_EXIT_INPUT;
	}
	_svg_axes(out, c->s[0].times);
	for (guint u = 0; u < c->users->len; u++) {
		if (!sel[u])
			continue;
		_svg_user(out, c, u, colors[shown % 10], shown);
		shown++;
	}
	fprintf(out, "<text x=\"%.0f\" y=\"%.0f\" font-size=\"10\">%s</text>\n"
		"</svg>\n", SVG_L, SVG_H - 8, _not_simulated);
	if (out != stdout ? fclose(out) : fflush(out)) {
		mf_cmd_error("--svg %s: write failed", path);
		return MF_EXIT_INPUT;
	}
	return MF_EXIT_OK;
}

/* --- the command ----------------------------------------------------- */

/* The period's default ends from the records. */
static void _period(const mf_sacct_t *h, time_t *from, time_t *to)
{
	int64_t lo = INT64_MAX, hi = 0;

	for (guint i = 0; i < h->jobs->len; i++) {
		const mf_replay_job_t *j = &g_array_index(h->jobs,
							  mf_replay_job_t, i);
		int64_t b = j->submit ? j->submit : j->eligible ? j->eligible :
			    j->start;

		if (j->eligible && j->eligible < b)
			b = j->eligible;
		if (j->start && j->start < b)
			b = j->start;
		int64_t e = MAX(MAX(j->end, j->start), MAX(j->eligible,
							    j->submit));

		if (b && b < lo)
			lo = b;
		if (e > hi)
			hi = e;
	}
	*from = lo == INT64_MAX ? 0 : (time_t)lo;
	*to = (time_t)hi;
}

/* Say what was clipped at the period's ends. */
static void _clip_notes(const mf_sacct_t *h, time_t from, time_t to)
{
	uint32_t before = 0, after = 0, out = 0, l_before = 0, l_after = 0,
		 l_out = 0;

	for (guint i = 0; i < h->jobs->len; i++) {
		const mf_replay_job_t *j = &g_array_index(h->jobs,
							  mf_replay_job_t, i);

		if (!j->start)
			continue;
		if ((j->end && j->end <= from) || j->start > to) {
			if (!out++)
				l_out = j->line;
			continue;
		}
		if (j->start < from && !before++)
			l_before = j->line;
		if ((!j->end || j->end > to) && !after++)
			l_after = j->line;
	}
	if (before)
		fprintf(stderr, "mfprio: note: %s:%u: %u record(s) started "
			"before the period's first tick: charged from it on\n",
			h->path, l_before, before);
	if (after)
		fprintf(stderr, "mfprio: note: %s:%u: %u record(s) ran past the "
			"period's last tick (or still run): charged up to it\n",
			h->path, l_after, after);
	if (out)
		fprintf(stderr, "mfprio: note: %s:%u: %u record(s) ran wholly "
			"outside the period: not charged\n", h->path, l_out,
			out);
	if (h->no_tres)
		fprintf(stderr, "mfprio: warning: %s:%u: %u job(s) that ran "
			"have no billing nor cpu in AllocTRES: charged "
			"nothing\n", h->path, h->first_no_tres, h->no_tres);
}

static void _side_clear(_side_t *s)
{
	mf_prio_conf_free(s->pc);
	mf_tree_destroy(s->tree);
	g_free(s->assoc);
	g_free(s->part);
	g_free(s->qos_prio);
	g_free(s->out);
	if (s->times)
		g_array_free(s->times, TRUE);
	if (s->fs)
		g_array_free(s->fs, TRUE);
	if (s->usage)
		g_array_free(s->usage, TRUE);
}

typedef struct {
	const char *conf, *assoc, *qos, *snapshot, *cluster, *from, *to;
	const char *table, *svg, *show;
	mf_conf_t *sets;
	GPtrArray *shares;           /* char* (argv's) */
	int at_end;                  /* -1: from the conf */
	int top;                     /* -1: unset */
	uint32_t every;
	bool json;
} _opts_t;

/* A change of the "after" side's settings, option OPT with ARG, into O
 * (--set, --flags and --damp as the LINE-th setting).  Returns 0, or -1
 * for a bad value (reported). */
static int _parse_change(_opts_t *o, int opt, const char *arg, int *line)
{
	mf_error_t e;
	char *end;
	long v;
	uint32_t flags;

	switch (opt) {
	case MF_IOPT_SET:
		if (mf_conf_set_arg(o->sets, arg, "--set", ++*line, &e)) {
			mf_cmd_error("%s", e.text);
			return -1;
		}
		return 0;
	case MF_IOPT_FLAGS:
		if (mf_priority_flags_parse(arg, &flags, &e)) {
			mf_cmd_error("--flags: %s", e.text);
			return -1;
		}
		mf_conf_set(o->sets, "PriorityFlags", arg, "--flags", ++*line);
		return 0;
	case OPT_DAMP:
		if (!g_ascii_isdigit(*arg) ||
		    (v = strtol(arg, &end, 10), *end) || v < 1 ||
		    v > 65535) {
			mf_cmd_error("--damp '%s': not a whole number "
				     "from 1 to 65535", arg);
			return -1;
		}
		mf_conf_set(o->sets, "FairShareDampeningFactor", arg,
			    "--damp", ++*line);
		return 0;
	case OPT_AT_END:
		if (strchr("yY1", *arg) && *arg)
			o->at_end = 1;
		else if (strchr("nN0", *arg) && *arg)
			o->at_end = 0;
		else {
			mf_cmd_error("--charge-at-end '%s': y or n", arg);
			return -1;
		}
		return 0;
	}
	return 0;
}

/* An option of the output, OPT with ARG, into O: --table, --top or
 * --every.  Returns 0, or -1 for a bad value (reported). */
static int _parse_output(_opts_t *o, int opt, const char *arg)
{
	char *end;
	long v;

	switch (opt) {
	case OPT_TABLE:
		if (strcmp(arg, "series") && strcmp(arg, "final") &&
		    strcmp(arg, "jobs") && strcmp(arg, "users")) {
			mf_cmd_error("--table '%s': series, final, jobs "
				     "or users", arg);
			return -1;
		}
		o->table = arg;
		return 0;
	case OPT_TOP:
	case OPT_EVERY:
		if (!g_ascii_isdigit(*arg) ||
		    (v = strtol(arg, &end, 10), *end) || v < 1 ||
		    v > 1000000) {
			mf_cmd_error("--%s '%s': not a whole number "
				     "from 1 to 1000000", opt == OPT_TOP ?
				     "top" : "every", arg);
			return -1;
		}
		if (opt == OPT_TOP)
			o->top = (int)v;
		else
			o->every = (uint32_t)v;
		return 0;
	}
	return 0;
}

/* Read the options of ARGV into O.  Returns an exit status, or -1
 * after --help. */
static int _parse(_opts_t *o, int argc, char **argv)
{
	static const struct option own[] = {
		{ "from", required_argument, NULL, OPT_FROM },
		{ "to", required_argument, NULL, OPT_TO },
		{ "damp", required_argument, NULL, OPT_DAMP },
		{ "share", required_argument, NULL, OPT_SHARE },
		{ "charge-at-end", required_argument, NULL, OPT_AT_END },
		{ "table", required_argument, NULL, OPT_TABLE },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "svg", required_argument, NULL, OPT_SVG },
		{ "show", required_argument, NULL, OPT_SHOW },
		{ "top", required_argument, NULL, OPT_TOP },
		{ "every", required_argument, NULL, OPT_EVERY },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const struct option *opts = mf_iopt_longopts(_MASK, own);
	int ch, line = 0;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (ch) {
		case MF_IOPT_CONF: o->conf = optarg; break;
		case MF_IOPT_ASSOC: o->assoc = optarg; break;
		case MF_IOPT_QOS: o->qos = optarg; break;
		case MF_IOPT_SNAPSHOT: o->snapshot = optarg; break;
		case MF_IOPT_CLUSTER: o->cluster = optarg; break;
		case OPT_FROM: o->from = optarg; break;
		case OPT_TO: o->to = optarg; break;
		case MF_IOPT_SET:
		case MF_IOPT_FLAGS:
		case OPT_DAMP:
		case OPT_AT_END:
			if (_parse_change(o, ch, optarg, &line))
				return MF_EXIT_USAGE;
			break;
		case OPT_SHARE: g_ptr_array_add(o->shares, optarg); break;
		case OPT_TABLE:
		case OPT_TOP:
		case OPT_EVERY:
			if (_parse_output(o, ch, optarg))
				return MF_EXIT_USAGE;
			break;
		case OPT_JSON: o->json = true; break;
		case OPT_SVG: o->svg = optarg; break;
		case OPT_SHOW: o->show = optarg; break;
		case 'h':
			_usage(stdout);
			return -1;
		default:
			_usage(stderr);
			return MF_EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		mf_cmd_error("replay: %s", optind < argc ?
			     "one SACCT_FILE only" :
			     "the sacct dump (SACCT_FILE) is required");
		return MF_EXIT_USAGE;
	}
	return MF_EXIT_OK;
}

/* O's input files: the snapshot SNAP's where options name none.  Returns
 * an exit status (errors reported). */
static int _replay_inputs(_opts_t *o, mf_snapdir_t *snap)
{
	mf_error_t e;

	if (o->snapshot) {
		if (mf_snapdir_open(o->snapshot, snap, &e)) {
			mf_cmd_error("%s", e.text);
			return MF_EXIT_INPUT;
		}
		if (!o->conf)
			o->conf = snap->conf;
		if (!o->assoc)
			o->assoc = snap->assoc;
		if (!o->qos)
			o->qos = snap->qos;
	}
	if (!o->conf || !o->assoc) {
		mf_cmd_error("replay: --conf FILE and --assoc FILE are required%s",
			     o->snapshot ? " (the snapshot lacks one)" :
			     " (or --snapshot DIR)");
		return MF_EXIT_USAGE;
	}
	return MF_EXIT_OK;
}

/* The settings and trees of both sides of C, the QOS priorities (in
 * *QOS, NULL without --qos) and the history HIST.  *CLUSTER may be set
 * from slurm.conf.  Returns an exit status (errors reported). */
static int _replay_load(_ctx_t *c, _opts_t *o, const char *hist,
			char **cluster, GHashTable **qos)
{
	mf_error_t e;
	int rc;

	if ((rc = _settings(&c->s[0], o->conf, NULL, o->at_end, false,
			    cluster)) ||
	    (rc = _settings(&c->s[1], o->conf, o->sets, o->at_end, true,
			    NULL)))
		return rc;
	for (int side = 0; side < 2; side++) {
		if (!(c->s[side].tree = mf_snapshot_load_cluster(o->assoc, NULL,
								 *cluster,
								 &e))) {
			mf_cmd_error("%s", e.text);
			return MF_EXIT_INPUT;
		}
	}
	for (guint i = 0; i < o->shares->len; i++)
		if (_share(c->s[1].tree, o->shares->pdata[i]))
			return MF_EXIT_USAGE;
	if (o->qos && !(*qos = mf_qos_load(o->qos, &e))) {
		mf_cmd_error("%s", e.text);
		return MF_EXIT_INPUT;
	}
	if (!(c->h = mf_sacct_load(hist, &e))) {
		mf_cmd_error("%s", e.text);
		return MF_EXIT_INPUT;
	}
	return MF_EXIT_OK;
}

/* The period replayed, in *FROM and *TO: the history's unless --from or
 * --to say.  Returns an exit status (errors reported). */
static int _replay_period(_ctx_t *c, const _opts_t *o, time_t *from,
			  time_t *to)
{
	mf_error_t e;

	_period(c->h, from, to);
	if (o->from && mf_time_point(o->from, time(NULL), from, &e)) {
		mf_cmd_error("--from %s", e.text);
		return MF_EXIT_USAGE;
	}
	if (o->to && mf_time_point(o->to, time(NULL), to, &e)) {
		mf_cmd_error("--to %s", e.text);
		return MF_EXIT_USAGE;
	}
	if (*to < *from) {
		mf_cmd_error("replay: the period ends (--to) before it starts "
			     "(--from)");
		return MF_EXIT_USAGE;
	}
	_clip_notes(c->h, *from, *to);
	return MF_EXIT_OK;
}

/* Ready both sides of C to replay FROM to TO: the user associations, the
 * highest QOS priority of QOS (may be NULL), the maps from the history
 * into each tree.  Returns nothing. */
static void _replay_prepare(_ctx_t *c, const _opts_t *o, GHashTable *qos,
			    time_t from, time_t to)
{
	c->users = g_ptr_array_new();
	for (guint i = 0; i < c->s[0].tree->order->len; i++)
		if (((mf_assoc_t *)c->s[0].tree->order->pdata[i])->user)
			g_ptr_array_add(c->users, GUINT_TO_POINTER(i));
	for (int side = 0; side < 2; side++) {
		_side_t *s = &c->s[side];
		GHashTableIter it;
		gpointer k, v;

		if (qos) {
			g_hash_table_iter_init(&it, qos);
			while (g_hash_table_iter_next(&it, &k, &v))
				if (GPOINTER_TO_UINT(v) >
				    s->cfg.qos_max_priority)
					s->cfg.qos_max_priority =
						GPOINTER_TO_UINT(v);
		}
		_map_assocs(s, c->h, !side);
		_map_parts_qos(s, c->h, qos);
		_prepare(c, s, from, to, o->every);
	}
}

/* Write what O asks of the replay C of HIST (FROM to TO): the SVG, the
 * JSON or a CSV table.  Returns an exit status. */
static int _replay_output(_ctx_t *c, const _opts_t *o, const char *hist,
			  time_t from, time_t to)
{
	char **show = o->show ? g_strsplit(o->show, ",", -1) : NULL;
	bool *sel = _selected(c, show, o->top > 0 ? o->top : -1);
	FILE *out = stdout;
	int rc = MF_EXIT_OK;

	if (o->svg) {
		bool *svg_sel = show || o->top > 0 ? sel :
				_selected(c, NULL, 6);

		rc = _svg(c, svg_sel, o->svg);
		if (svg_sel != sel)
			g_free(svg_sel);
		if (rc || !strcmp(o->svg, "-"))
			goto done;
	}
	if (o->json) {
		_json(c, sel, from, to, out);
	} else {
		const char *t = o->table ? o->table : "series";

		fprintf(out, "# mfprio replay of %s: %s\n", hist,
			_not_simulated);
		if (!strcmp(t, "series"))
			_csv_series(c, sel, out);
		else if (!strcmp(t, "final"))
			_csv_final(c, out);
		else if (!strcmp(t, "jobs"))
			_csv_jobs(c, out);
		else
			_csv_users(c, out);
	}
	if (fflush(out))
		rc = MF_EXIT_INPUT;
done:
	g_strfreev(show);
	g_free(sel);
	return rc;
}

/* Replay the history HIST as O asks, before and after its changes, and
 * write the result.  Returns an exit status. */
static int _replay(_ctx_t *c, _opts_t *o, const char *hist)
{
	mf_snapdir_t snap = { 0 };
	GHashTable *qos = NULL;
	char *cluster = o->cluster ? g_strdup(o->cluster) : NULL;
	time_t from, to;
	GThread *t;
	int rc;

	if ((rc = _replay_inputs(o, &snap)) ||
	    (rc = _replay_load(c, o, hist, &cluster, &qos)) ||
	    (rc = _replay_period(c, o, &from, &to)))
		goto done;
	_replay_prepare(c, o, qos, from, to);
	/* "after" in a thread of its own, "before" in this one */
	t = g_thread_new("replay-after", _run, &c->s[1]);
	(void)_run(&c->s[0]);
	g_thread_join(t);
	if ((rc = c->s[0].status) || (rc = c->s[1].status))
		goto done;
	rc = _replay_output(c, o, hist, from, to);
done:
	g_free(cluster);
	if (qos)
		g_hash_table_destroy(qos);
	mf_snapdir_clear(&snap);
	return rc;
}

int cmd_replay(int argc, char **argv)
{
	_opts_t o = { .at_end = -1, .top = -1 };
	_ctx_t c = { 0 };
	int rc;

	o.sets = mf_conf_parse("", "--set", NULL);
	o.shares = g_ptr_array_new();
	rc = _parse(&o, argc, argv);
	if (rc < 0)
		rc = MF_EXIT_OK;
	else if (!rc)
		rc = _replay(&c, &o, argv[argc - 1]);
	_side_clear(&c.s[0]);
	_side_clear(&c.s[1]);
	mf_sacct_free(c.h);
	if (c.users)
		g_ptr_array_unref(c.users);
	mf_conf_free(o.sets);
	g_ptr_array_unref(o.shares);
	return rc;
}
