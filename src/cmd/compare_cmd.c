/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mfprio compare: the same inputs under two settings, "before" (the
 * slurm.conf as it is) and "after" (the conf with --set KEY=VALUE added
 * after its last line), and what moved: each pending job's rank and
 * priority, each user's best and mean rank and fair-share factor.
 *
 * Both sides are read and computed by priority_run.h, as `mfprio priority`
 * does; a job's priority is the one Slurm keeps for it (its row in its
 * first partition, the highest PriorityTier), and its rank is its place
 * among the listed jobs by that priority, highest first, then job id
 * (1 is first).
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd.h"
#include "cmd_error.h"
#include "slurm_release.h"
#include "input_opts.h"
#include "json_out.h"
#include "priority_flags.h"
#include "priority_json.h"
#include "priority_run.h"
#include "timestr.h"

static const char _usage_head[] =
"Usage: mfprio compare --conf FILE --jobs FILE [--qos FILE]\n"
"                      [--assoc FILE [--usage FILE]] [--assoc-prio FILE]\n"
"                      [--now TIME] [--release VER] [--cluster NAME]\n"
"                      [--set KEY=VALUE]... [--flags FLAGS] [--damp N]\n"
"                      [--json] [-P] [-n]\n"
"       mfprio compare --snapshot DIR [any option above]\n"
"\n"
"Compute every pending job's priority twice over the same inputs: before,\n"
"with slurm.conf as it is; after, with the --set settings added after its\n"
"last line.  Print, largest move first, each job's rank and priority\n"
"before and after, then each user's (user in an account) best and mean\n"
"rank and fair-share factor before and after.  --set, --flags (the same\n"
"as --set PriorityFlags=FLAGS) and --damp are settings of \"after\" only,\n"
"a later one winning.\n"
"\n";

static const char _usage_own[] =
"  --damp N           the same as --set FairShareDampeningFactor=N\n"
"  --json             one JSON object: both settings, the jobs and the\n"
"                     users; see mfprio(1)\n"
"  -P, --parsable     '|'-separated fields, no padding, no summary\n"
"  -n, --noheader     no header lines\n";

static const char _usage_tail[] =
"PriorityDecayHalfLife, PriorityCalcPeriod and PriorityUsageResetPeriod\n"
"change how usage decays from now on: the usage read is what decay had\n"
"left when it was dumped, so they change no figure here (a note says so).\n";

/* --help: the command, its input options (input_opts.def), its own. */
static const mf_iopt_help_t _help = {
	_usage_head, MF_IOPT_PRIORITY_INPUTS, _usage_own, _usage_tail
};

enum { OPT_DAMP = 256, OPT_JSON };

/* Where a job stands on one side. */
typedef struct {
	bool listed;
	uint32_t rank;           /* 1 is first */
	uint32_t priority;
	double fs;               /* its fair-share factor */
} _side_t;

typedef struct {
	uint32_t job_id;
	const char *user, *account, *partition;   /* borrowed */
	_side_t s[2];            /* before, after */
} _job_cmp_t;

/* One user in one account over its listed jobs, on each side. */
typedef struct {
	const char *user, *account;
	uint32_t jobs;
	uint32_t n[2];           /* its jobs listed on each side */
	uint32_t best[2];        /* best rank (0: none listed) */
	double rank_sum[2];
	double fs[2];            /* NaN: none listed */
} _user_cmp_t;

/* Keys that act on usage's decay, not on a snapshot's figures. */
static bool _decay_only(const char *key)
{
	return !g_ascii_strcasecmp(key, "PriorityDecayHalfLife") ||
	       !g_ascii_strcasecmp(key, "PriorityCalcPeriod") ||
	       !g_ascii_strcasecmp(key, "PriorityUsageResetPeriod");
}

/* --flags and --damp are refused when bad, as fairshare's are (a --set
 * value is taken as slurm.conf's: warned about).  Return 0 or -1. */
static int _check_flags(const char *arg)
{
	uint32_t flags = 0;
	mf_error_t e;

	if (mf_priority_flags_parse(arg, &flags, &e)) {
		mf_cmd_error("--flags: %s", e.text);
		return -1;
	}
	return 0;
}

static int _check_damp(const char *arg)
{
	char *end;
	long v;

	if (!g_ascii_isdigit(*arg) || (v = strtol(arg, &end, 10), *end) ||
	    v < 1 || v > 65535) {
		mf_cmd_error("--damp '%s': not a whole number from 1 to "
			     "65535", arg);
		return -1;
	}
	return 0;
}

/* Add KEY=VALUE (ARG, or KEY and ARG) to SETS.  Returns 0, or -1 after
 * printing a usage error. */
static int _add_set(GPtrArray *sets, const char *key, const char *arg)
{
	mf_conf_pair_t *p;
	const char *eq = NULL;
	char *k;

	if (!key) {
		eq = strchr(arg, '=');
		if (!eq || eq == arg) {
			mf_cmd_error("--set '%s': not KEY=VALUE", arg);
			return -1;
		}
		k = g_strstrip(g_strndup(arg, (gsize)(eq - arg)));
	} else {
		k = g_strdup(key);
	}
	if (!*k || !mf_conf_key_settable(k)) {
		mf_cmd_error("--set '%s': only the Priority* keys of slurm.conf "
			     "and FairShareDampeningFactor can be set", arg);
		g_free(k);
		return -1;
	}
	p = g_new0(mf_conf_pair_t, 1);
	p->key = k;
	p->value = g_strstrip(g_strdup(eq ? eq + 1 : arg));
	p->file = g_strdup("--set");
	p->line = (int)sets->len + 1;
	g_ptr_array_add(sets, p);
	if (_decay_only(k))
		fprintf(stderr, "mfprio: note: --set %s: it changes how usage "
			"decays from the time of the dumps on; the usage read "
			"is what decay had left then, so no figure here "
			"changes\n", k);
	return 0;
}

/* Job ids of C's listed jobs by priority (highest first), then id. */
static gint _by_rank(gconstpointer a, gconstpointer b)
{
	const mf_prun_row_t *x = *(mf_prun_row_t *const *)a;
	const mf_prun_row_t *y = *(mf_prun_row_t *const *)b;

	if (x->r.priority != y->r.priority)
		return x->r.priority > y->r.priority ? -1 : 1;
	if (x->job->job.job_id != y->job->job.job_id)
		return x->job->job.job_id < y->job->job.job_id ? -1 : 1;
	return 0;
}

/* Fill side SIDE of the entries in BY_ID (job id -> _job_cmp_t, added as
 * needed to ALL) from C. */
static void _side(const mf_prun_ctx_t *c, int side, GHashTable *by_id,
		  GPtrArray *all)
{
	GPtrArray *rows = g_ptr_array_new();

	for (guint i = 0; i < c->jobs->len; i++) {
		const mf_prun_row_t *row = mf_prun_job_row(c,
							   c->jobs->pdata[i]);

		if (row)
			g_ptr_array_add(rows, (gpointer)row);
	}
	g_ptr_array_sort(rows, _by_rank);
	for (guint i = 0; i < rows->len; i++) {
		const mf_prun_row_t *row = rows->pdata[i];
		uint32_t id = row->job->job.job_id;
		_job_cmp_t *e = g_hash_table_lookup(by_id,
						    GUINT_TO_POINTER(id));

		if (!e) {
			e = g_new0(_job_cmp_t, 1);
			e->job_id = id;
			e->user = row->job->line->user;
			e->account = row->job->line->account;
			e->partition = row->r.partition ?
				       row->r.partition->name : "";
			g_hash_table_insert(by_id, GUINT_TO_POINTER(id), e);
			g_ptr_array_add(all, e);
		}
		e->s[side].listed = true;
		e->s[side].rank = i + 1;
		e->s[side].priority = row->r.priority;
		e->s[side].fs = row->r.fs;
	}
	g_ptr_array_unref(rows);
}

/* How far a job moved: a job listed on one side only counts as the
 * largest move. */
static int64_t _rank_move(const _job_cmp_t *e)
{
	if (!e->s[0].listed || !e->s[1].listed)
		return INT64_MAX;
	return llabs((long long)e->s[0].rank - (long long)e->s[1].rank);
}

static int64_t _prio_change(const _job_cmp_t *e)
{
	if (!e->s[0].listed || !e->s[1].listed)
		return INT64_MAX;
	return llabs((long long)e->s[1].priority -
		     (long long)e->s[0].priority);
}

/* Largest rank move first, then largest priority change, then job id. */
static gint _by_move(gconstpointer a, gconstpointer b)
{
	const _job_cmp_t *x = *(_job_cmp_t *const *)a;
	const _job_cmp_t *y = *(_job_cmp_t *const *)b;
	int64_t mx = _rank_move(x), my = _rank_move(y);

	if (mx != my)
		return mx > my ? -1 : 1;
	mx = _prio_change(x);
	my = _prio_change(y);
	if (mx != my)
		return mx > my ? -1 : 1;
	return x->job_id < y->job_id ? -1 : x->job_id > y->job_id;
}

static double _user_best_move(const _user_cmp_t *u)
{
	if (!u->best[0] || !u->best[1])
		return INFINITY;
	return fabs((double)u->best[0] - (double)u->best[1]);
}

static double _user_mean_move(const _user_cmp_t *u)
{
	if (!u->n[0] || !u->n[1])
		return INFINITY;
	return fabs(u->rank_sum[0] / u->n[0] - u->rank_sum[1] / u->n[1]);
}

/* Largest best-rank move first, then mean-rank move, then fair-share
 * change, then user and account names. */
static gint _user_by_move(gconstpointer a, gconstpointer b)
{
	const _user_cmp_t *x = *(_user_cmp_t *const *)a;
	const _user_cmp_t *y = *(_user_cmp_t *const *)b;
	double mx = _user_best_move(x), my = _user_best_move(y);
	int r;

	if (mx != my)
		return mx > my ? -1 : 1;
	mx = _user_mean_move(x);
	my = _user_mean_move(y);
	if (mx != my)
		return mx > my ? -1 : 1;
	mx = fabs(x->fs[1] - x->fs[0]);
	my = fabs(y->fs[1] - y->fs[0]);
	if (!isnan(mx) && !isnan(my) && mx != my)
		return mx > my ? -1 : 1;
	if ((r = strcmp(x->user, y->user)))
		return r;
	return strcmp(x->account, y->account);
}

/* The users (user in account) of JOBS, in JOBS' order of appearance. */
static GPtrArray *_users(const GPtrArray *jobs)
{
	GPtrArray *users = g_ptr_array_new_with_free_func(g_free);
	GHashTable *by_key = g_hash_table_new_full(g_str_hash, g_str_equal,
						   g_free, NULL);

	for (guint i = 0; i < jobs->len; i++) {
		const _job_cmp_t *e = jobs->pdata[i];
		char *key = g_strdup_printf("%s\n%s", e->user, e->account);
		_user_cmp_t *u = g_hash_table_lookup(by_key, key);

		if (!u) {
			u = g_new0(_user_cmp_t, 1);
			u->user = e->user;
			u->account = e->account;
			u->fs[0] = u->fs[1] = NAN;
			g_hash_table_insert(by_key, key, u);
			g_ptr_array_add(users, u);
		} else {
			g_free(key);
		}
		u->jobs++;
		for (int s = 0; s < 2; s++) {
			if (!e->s[s].listed)
				continue;
			u->n[s]++;
			u->rank_sum[s] += e->s[s].rank;
			if (!u->best[s] || e->s[s].rank < u->best[s])
				u->best[s] = e->s[s].rank;
			u->fs[s] = e->s[s].fs;
		}
	}
	g_hash_table_unref(by_key);
	g_ptr_array_sort(users, _user_by_move);
	return users;
}

/* --- output ----------------------------------------------------------- */

static const char *const _job_header[] = {
	"JOBID", "USER", "ACCOUNT", "PARTITION", "RANK_BEFORE", "RANK_AFTER",
	"MOVE", "PRIO_BEFORE", "PRIO_AFTER", "CHANGE",
};
static const int _job_width[] = { -10, -10, -10, -10, 11, 10, 6, 11, 10,
				   10 };
static const char *const _user_header[] = {
	"USER", "ACCOUNT", "JOBS", "BEST_BEFORE", "BEST_AFTER", "MOVE",
	"MEAN_BEFORE", "MEAN_AFTER", "FS_BEFORE", "FS_AFTER",
};
static const int _user_width[] = { -10, -10, 5, 11, 10, 6, 11, 10, 9, 9 };

/* Print N fields, '|'-separated or padded to WIDTH (negative: left). */
static void _fields(FILE *out, char *const *f, const int *width, size_t n,
		    bool parsable)
{
	for (size_t i = 0; i < n; i++) {
		if (parsable)
			fprintf(out, "%s%s", i ? "|" : "", f[i]);
		else
			fprintf(out, "%s%*s", i ? " " : "", width[i], f[i]);
	}
	fputc('\n', out);
}

static char *_num(bool set, long long v)
{
	return set ? g_strdup_printf("%lld", v) : g_strdup("-");
}

static char *_signed(bool set, long long v)
{
	if (!set)
		return g_strdup("-");
	return v ? g_strdup_printf("%+lld", v) : g_strdup("0");
}

/* V with DECIMALS decimals, or "-" for NaN (nothing listed). */
static char *_real(double v, int decimals)
{
	return isnan(v) ? g_strdup("-") : g_strdup_printf("%.*f", decimals, v);
}

static void _free_fields(char **f, size_t n)
{
	for (size_t i = 0; i < n; i++)
		g_free(f[i]);
}

static void _print_text(FILE *out, const mf_prun_opts_t *o,
			const GPtrArray *jobs, const GPtrArray *users,
			uint32_t moved, uint32_t changed)
{
	if (!o->parsable) {
		fprintf(out, "before: %s as it is\n", o->conf);
		if (o->sets->len)
			fprintf(out, "after:  %s with", o->conf);
		else
			fprintf(out, "after:  the same (no --set, --flags or "
				"--damp given)");
		for (guint i = 0; i < o->sets->len; i++) {
			const mf_conf_pair_t *p = o->sets->pdata[i];

			fprintf(out, "%s %s=%s", i ? "," : "", p->key,
				p->value);
		}
		fprintf(out, "\n%u job(s) ranked: %u moved, %u changed "
			"priority\n\n", jobs->len, moved, changed);
	}
	if (!o->noheader)
		_fields(out, (char *const *)_job_header, _job_width,
			G_N_ELEMENTS(_job_header), o->parsable);
	for (guint i = 0; i < jobs->len; i++) {
		const _job_cmp_t *e = jobs->pdata[i];
		const _side_t *b = &e->s[0], *a = &e->s[1];
		bool both = a->listed && b->listed;
		char *f[G_N_ELEMENTS(_job_header)];

		f[0] = g_strdup_printf("%u", e->job_id);
		f[1] = g_strdup(e->user);
		f[2] = g_strdup(e->account);
		f[3] = g_strdup(e->partition);
		f[4] = _num(b->listed, b->rank);
		f[5] = _num(a->listed, a->rank);
		f[6] = _signed(both, (long long)b->rank - (long long)a->rank);
		f[7] = _num(b->listed, b->priority);
		f[8] = _num(a->listed, a->priority);
		f[9] = _signed(both, (long long)a->priority -
			       (long long)b->priority);
		_fields(out, f, _job_width, G_N_ELEMENTS(f), o->parsable);
		_free_fields(f, G_N_ELEMENTS(f));
	}
	fputc('\n', out);
	if (!o->noheader)
		_fields(out, (char *const *)_user_header, _user_width,
			G_N_ELEMENTS(_user_header), o->parsable);
	for (guint i = 0; i < users->len; i++) {
		const _user_cmp_t *u = users->pdata[i];
		char *f[G_N_ELEMENTS(_user_header)];

		f[0] = g_strdup(u->user);
		f[1] = g_strdup(u->account);
		f[2] = g_strdup_printf("%u", u->jobs);
		f[3] = _num(u->best[0], u->best[0]);
		f[4] = _num(u->best[1], u->best[1]);
		f[5] = _signed(u->best[0] && u->best[1],
			       (long long)u->best[0] - (long long)u->best[1]);
		f[6] = _real(u->n[0] ? u->rank_sum[0] / u->n[0] : NAN, 2);
		f[7] = _real(u->n[1] ? u->rank_sum[1] / u->n[1] : NAN, 2);
		f[8] = _real(u->fs[0], 6);
		f[9] = _real(u->fs[1], 6);
		_fields(out, f, _user_width, G_N_ELEMENTS(f), o->parsable);
		_free_fields(f, G_N_ELEMENTS(f));
	}
}

/* A member that is VALUE when SET, else null. */
static void _opt_int(mf_json_t *j, const char *key, bool set, int64_t v)
{
	if (set)
		mf_json_int(j, key, v);
	else
		mf_json_null(j, key);
}

static void _print_json(FILE *out, const mf_prun_ctx_t c[2],
			const mf_prun_opts_t o[2], const GPtrArray *jobs,
			const GPtrArray *users, uint32_t moved,
			uint32_t changed)
{
	mf_json_t j;

	mf_json_init(&j, out);
	mf_json_begin_object(&j, NULL);
	mf_json_string(&j, "command", "compare");
	mf_json_begin_object(&j, "settings");
	mf_prun_json_settings(&j, "before", &c[0], &o[0]);
	mf_prun_json_settings(&j, "after", &c[1], &o[1]);
	mf_json_end_object(&j);
	mf_json_begin_object(&j, "summary");
	mf_json_uint(&j, "jobs", jobs->len);
	mf_json_uint(&j, "moved", moved);
	mf_json_uint(&j, "priority_changed", changed);
	mf_json_end_object(&j);
	mf_json_begin_array(&j, "jobs");
	for (guint i = 0; i < jobs->len; i++) {
		const _job_cmp_t *e = jobs->pdata[i];
		const _side_t *b = &e->s[0], *a = &e->s[1];
		bool both = a->listed && b->listed;

		mf_json_begin_object(&j, NULL);
		mf_json_uint(&j, "job_id", e->job_id);
		mf_json_string(&j, "user", e->user);
		mf_json_string(&j, "account", e->account);
		mf_json_string(&j, "partition", e->partition);
		_opt_int(&j, "rank_before", b->listed, b->rank);
		_opt_int(&j, "rank_after", a->listed, a->rank);
		_opt_int(&j, "move", both, (int64_t)b->rank - a->rank);
		_opt_int(&j, "priority_before", b->listed, b->priority);
		_opt_int(&j, "priority_after", a->listed, a->priority);
		_opt_int(&j, "change", both,
			 (int64_t)a->priority - (int64_t)b->priority);
		mf_json_double(&j, "fairshare_before", b->listed ? b->fs : NAN);
		mf_json_double(&j, "fairshare_after", a->listed ? a->fs : NAN);
		mf_json_end_object(&j);
	}
	mf_json_end_array(&j);
	mf_json_begin_array(&j, "users");
	for (guint i = 0; i < users->len; i++) {
		const _user_cmp_t *u = users->pdata[i];

		mf_json_begin_object(&j, NULL);
		mf_json_string(&j, "user", u->user);
		mf_json_string(&j, "account", u->account);
		mf_json_uint(&j, "jobs", u->jobs);
		_opt_int(&j, "best_rank_before", u->best[0], u->best[0]);
		_opt_int(&j, "best_rank_after", u->best[1], u->best[1]);
		_opt_int(&j, "move", u->best[0] && u->best[1],
			 (int64_t)u->best[0] - (int64_t)u->best[1]);
		mf_json_double(&j, "mean_rank_before",
			       u->n[0] ? u->rank_sum[0] / u->n[0] : NAN);
		mf_json_double(&j, "mean_rank_after",
			       u->n[1] ? u->rank_sum[1] / u->n[1] : NAN);
		mf_json_double(&j, "fairshare_before", u->fs[0]);
		mf_json_double(&j, "fairshare_after", u->fs[1]);
		mf_json_end_object(&j);
	}
	mf_json_end_array(&j);
	mf_json_end_object(&j);
	mf_json_finish(&j);
}

/* Compute both sides and print.  Returns an exit status. */
static int _compare(mf_prun_opts_t o[2], const char *release)
{
	mf_prun_ctx_t c[2] = { { 0 }, { 0 } };
	GHashTable *by_id = g_hash_table_new(g_direct_hash, g_direct_equal);
	GPtrArray *jobs = g_ptr_array_new_with_free_func(g_free);
	GPtrArray *users = NULL;
	uint32_t moved = 0, changed = 0;
	int rc = MF_EXIT_OK;

	for (int s = 0; s < 2 && !rc; s++) {
		if (release && mf_cmd_release_option(&c[s].rel, release))
			rc = MF_EXIT_USAGE;
		else
			rc = mf_prun_run(&c[s], &o[s]);
	}
	if (!rc) {
		_side(&c[0], 0, by_id, jobs);
		_side(&c[1], 1, by_id, jobs);
		g_ptr_array_sort(jobs, _by_move);
		for (guint i = 0; i < jobs->len; i++) {
			const _job_cmp_t *e = jobs->pdata[i];

			moved += _rank_move(e) != 0;
			changed += _prio_change(e) != 0;
		}
		users = _users(jobs);
		if (o[0].json)
			_print_json(stdout, c, o, jobs, users, moved, changed);
		else
			_print_text(stdout, &o[1], jobs, users, moved,
				    changed);
		g_ptr_array_unref(users);
	}
	g_ptr_array_unref(jobs);
	g_hash_table_unref(by_id);
	mf_prun_clear(&c[0]);
	mf_prun_clear(&c[1]);
	return rc;
}

int cmd_compare(int argc, char **argv)
{
	static const struct option own[] = {
		{ "damp", required_argument, NULL, OPT_DAMP },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "parsable", no_argument, NULL, 'P' },
		{ "noheader", no_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 },
	};
	const struct option *opts =
		mf_iopt_longopts(_help.mask, own);
	mf_prun_opts_t o[2];
	/* the settings of "after" (--set, --flags, --damp), in order */
	GPtrArray *sets = g_ptr_array_new_with_free_func(mf_conf_pair_free);
	mf_iopts_t io;
	int ch, t, rc = MF_EXIT_OK;

	mf_iopt_init(&io);
	optind = 1;
	while (!rc && (ch = getopt_long(argc, argv, "Pnh", opts, NULL)) != -1) {
		switch (ch) {
		/* compare's own: its what-ifs go to "after" only */
		case MF_IOPT_SET:
			if (_add_set(sets, NULL, optarg))
				rc = MF_EXIT_USAGE;
			break;
		case MF_IOPT_FLAGS:
			if (_check_flags(optarg) ||
			    _add_set(sets, "PriorityFlags", optarg))
				rc = MF_EXIT_USAGE;
			break;
		case OPT_DAMP:
			if (_check_damp(optarg) ||
			    _add_set(sets, "FairShareDampeningFactor", optarg))
				rc = MF_EXIT_USAGE;
			break;
		case OPT_JSON: io.o.json = true; break;
		case 'P': io.o.parsable = true; break;
		case 'n': io.o.noheader = true; break;
		case 'h':
			mf_iopt_usage(stdout, &_help);
			g_ptr_array_unref(sets);
			mf_iopt_clear(&io);
			return MF_EXIT_OK;
		default:
			/* the inputs, as priority, why and check take them */
			if ((t = mf_iopt_take(&io, ch, optarg)) < 0) {
				rc = MF_EXIT_USAGE;
			} else if (!t) {
				mf_iopt_usage(stderr, &_help);
				rc = MF_EXIT_USAGE;
			}
		}
	}
	if (!rc && mf_iopt_no_operand(argc, argv, "compare"))
		rc = MF_EXIT_USAGE;
	if (!rc)
		rc = mf_iopt_finish(&io, "compare");
	if (!rc) {
		o[0] = io.o;
		o[1] = io.o;
		o[1].sets = sets;
		o[1].quiet = true;
		rc = _compare(o, io.release);
	}
	g_ptr_array_unref(sets);
	mf_iopt_clear(&io);
	if (!rc && fflush(stdout))
		rc = MF_EXIT_INPUT;
	return rc;
}
