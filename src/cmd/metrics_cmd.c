/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mfprio metrics: fair-share in Prometheus's text format, the families of
 * the plugin's metrics file (src/core/metrics.h) less the plugin's own
 * cycle figures, for any site, including one that keeps upstream's
 * priority/multifactor:
 *
 *   --live         what the cluster says now: `sshare -a -P -n -o
 *                  Cluster,Account,User,Partition,RawShares,NormShares,
 *                  RawUsage,EffectvUsage,FairShare,LevelFS` for the
 *                  associations (sshare's own figures, nothing computed),
 *                  `sprio -h -o %i|%r|%u|%Y` and `squeue -h -t PD -o %A|%a|%V`
 *                  for the pending jobs;
 *   --snapshot DIR (or the file options of `mfprio priority`): computed by
 *                  mfprio's core from the snapshot, as `mfprio fairshare`
 *                  and `mfprio priority` print them.
 *
 * Printed to stdout, or with --output FILE written through FILE.tmp and an
 * atomic swap (mf_metrics_write_file(); for node_exporter's textfile
 * collector, run from a timer).  No
 * HTTP server: the textfile collector already serves the file next to the
 * node's other metrics, one process with one port and its own access
 * rules; a second listener would add a port, a TLS and authentication
 * story and a long-running process that runs Slurm's commands on every
 * scrape, where a timer runs them at a pace the controller can afford.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include <glib.h>

#include "cmd.h"
#include "exit_status.h"
#include "fairshare.h"
#include "input_opts.h"
#include "level_fs.h"
#include "live_text.h"
#include "metrics.h"
#include "priority_run.h"
#include "slurm_conf.h"
#include "timestr.h"

static const char _usage_head[] =
"Usage: mfprio metrics --live [--output FILE] [--cluster NAME]\n"
"       mfprio metrics --snapshot DIR [input options] [--output FILE]\n"
"\n"
"Print fair-share in Prometheus's text exposition format: per association\n"
"(labels cluster, account, user, partition, parent, depth) shares,\n"
"normalized shares, raw and effective usage, fair-share factor and Fair\n"
"Tree's level fair-share; per association and partition the pending\n"
"jobs, the sum and the highest of their priorities.  The same families as\n"
"the plugin's metrics file (PriorityParameters=mfprio_metrics_file=FILE),\n"
"without the plugin's cycle figures; see mfprio(1).  Either --live or\n"
"the input files; --cluster NAME is also the cluster label (default:\n"
"sshare's Cluster with --live, else the conf's ClusterName).\n"
"\n";

static const char _usage_own[] =
"  --output FILE      write FILE atomically (into FILE.tmp, then\n"
"                     swapped) instead of stdout: for node_exporter's\n"
"                     textfile collector, FILE ending in .prom in its\n"
"                     --collector.textfile.directory\n";

enum { OPT_OUTPUT = 300 };

/* --output FILE into ARG0 (a const char *). */
static int _metrics_own(void *arg0, int ch, const char *arg)
{
	(void) ch;
	*(const char **) arg0 = arg;
	return 0;
}

static const struct option _own_opts[] = {
	{ "output", required_argument, NULL, OPT_OUTPUT },
	{ NULL, 0, NULL, 0 },
};

/* The command: its --help, its input options (input_opts.def), its own
 * (the inputs it needs are checked without --live only). */
static const mf_iopt_cmd_t _cmd = {
	.name = "metrics",
	.head = _usage_head,
	.mask = MF_IOPT_PRIORITY_INPUTS | MF_IOPT_BIT(LIVE),
	.own = _usage_own,
	.need = MF_IOPT_BIT(CONF) | MF_IOPT_BIT(JOBS),
	.longopts = _own_opts,
	.take = _metrics_own,
};

/* Which job of a pending row was submitted first (ties: the lower id). */
typedef struct {
	time_t submit;
	uint32_t job_id;
} _first_t;

/* What the families are made of, and who owns the strings. */
typedef struct {
	GStringChunk *names;
	GArray *assocs;          /* mf_metrics_assoc_t */
	GArray *pending;         /* mf_metrics_pending_t */
	GHashTable *pending_at;  /* "acct\nuser\npart" -> index + 1 */
	GArray *first;           /* _first_t per pending row */
	char *cluster;
	const char *algorithm;
	double timestamp;
} _fig_t;

static const char *_s(_fig_t *f, const char *s)
{
	return (s && *s) ? g_string_chunk_insert_const(f->names, s) : NULL;
}

/* Count a job (JOB_ID, submitted at SUBMIT, 0: unknown) with priority
 * PRIO in PART, at time NOW. */
static void _add_pending(_fig_t *f, const char *acct, const char *user,
			 const char *part, double prio, uint32_t job_id,
			 time_t submit, time_t now)
{
	char *key = g_strdup_printf("%s\n%s\n%s", acct ? acct : "",
				    user ? user : "", part ? part : "");
	gpointer at = g_hash_table_lookup(f->pending_at, key);
	mf_metrics_pending_t *row;
	_first_t *first;

	if (!at) {
		mf_metrics_pending_t n = { .account = _s(f, acct),
					   .user = _s(f, user),
					   .partition = _s(f, part) };

		if (!n.account)
			n.account = "";
		_first_t fj = { .submit = submit, .job_id = job_id };

		if (!n.user)
			n.user = "";
		n.oldest_wait = NAN;
		g_array_append_val(f->pending, n);
		g_array_append_val(f->first, fj);
		at = GUINT_TO_POINTER(f->pending->len);
		g_hash_table_insert(f->pending_at, key, at);
	} else {
		g_free(key);
	}
	row = &g_array_index(f->pending, mf_metrics_pending_t,
			     GPOINTER_TO_UINT(at) - 1);
	first = &g_array_index(f->first, _first_t, GPOINTER_TO_UINT(at) - 1);
	row->jobs++;
	row->prio_sum += prio;
	if (row->jobs == 1 || prio > row->prio_max)
		row->prio_max = prio;
	if (row->jobs == 1 || submit < first->submit ||
	    (submit == first->submit && job_id <= first->job_id)) {
		first->submit = submit;
		first->job_id = job_id;
		row->oldest_prio = prio;
		row->oldest_wait = submit ? difftime(now, submit) : NAN;
	}
}

/* A figure as sshare prints it: unset markers as NAN. */
static double _fig(double v)
{
	if (isnan(v) || v == (double) MF_LEVEL_FS_UNSET || v == 4294967295.0)
		return NAN;
	return v;
}

/* --- from a snapshot: mfprio's own computation --- */

static int _from_inputs(mf_iopts_t *io, _fig_t *f)
{
	mf_prun_ctx_t c = { 0 };
	int rc = mf_iopt_run(io, &c);
	bool ft;

	if (rc) {
		mf_prun_clear(&c);
		return rc;
	}
	ft = c.fs_cfg.algo == MF_FS_FAIR_TREE;
	f->algorithm = mf_fs_algo_name(c.fs_cfg.algo);
	f->timestamp = (double) io->o.now;
	if (!f->cluster && c.cluster)
		f->cluster = g_strdup(c.cluster);
	for (guint i = 0; c.tree && i < c.tree->order->len; i++) {
		const mf_assoc_t *a = c.tree->order->pdata[i];
		bool parent_fs = mf_assoc_is_parent_fs(a);
		mf_metrics_assoc_t m = {
			.account = _s(f, a->acct),
			.user = _s(f, a->user),
			.partition = _s(f, a->partition),
			.parent = a->parent ? _s(f, a->parent->acct) : NULL,
			.depth = a->depth,
			.shares_raw = (!a->parent || parent_fs) ?
				MF_METRICS_NO_SHARES : a->shares_raw,
			.shares_norm = _fig(a->shares_norm),
			.usage_raw = _fig((double) a->usage_raw),
			.usage_efctv = _fig((double) a->usage_efctv),
			.fs_factor = (ft && !a->user) ? NAN :
				_fig(a->fs_factor),
			.level_fs = parent_fs ? NAN :
				_fig((double) a->level_fs),
		};

		g_array_append_val(f->assocs, m);
	}
	for (guint i = 0; c.rows && i < c.rows->len; i++) {
		const mf_prun_row_t *r = c.rows->pdata[i];
		const mf_job_line_t *l = r->job->line;

		if (l->state && strcmp(l->state, "PENDING"))
			continue;
		_add_pending(f, l->account, l->user,
			     r->r.partition ? r->r.partition->name : NULL,
			     (double) r->r.priority, l->job_id, l->submit_time,
			     io->o.now);
	}
	mf_prun_clear(&c);
	return MF_EXIT_OK;
}

/* --- live: the commands' own figures --- */

/* Run ARGV; its stdout in *OUT.  Returns 0, or -1 after saying why. */
static int _run(const char *const *argv, char **out)
{
	char *cmd = g_strjoinv(" ", (char **) argv), *err = NULL;
	GError *gerr = NULL;
	int status = 0, rc = -1;

	*out = NULL;
	if (!g_spawn_sync(NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH,
			  NULL, NULL, out, &err, &status, &gerr)) {
		mf_print_error("metrics: cannot run `%s`: %s", cmd,
			     gerr->message);
		g_error_free(gerr);
	} else if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		g_strstrip(err);
		mf_print_error("metrics: `%s` failed%s%s", cmd, *err ? ": " : "",
			     err);
	} else {
		rc = 0;
	}
	if (rc) {
		g_free(*out);
		*out = NULL;
	}
	g_free(err);
	g_free(cmd);
	return rc;
}

static int _live_assocs(_fig_t *f)
{
	static const char *const argv[] = {
		"sshare", "-a", "-P", "-n", "-o",
		"Cluster,Account,User,Partition,RawShares,NormShares,RawUsage,"
		"EffectvUsage,FairShare,LevelFS", NULL };
	char *text;
	mf_error_t err;
	int rc = MF_EXIT_OK;

	if (_run(argv, &text))
		return MF_EXIT_INPUT;
	if (mf_live_sshare(text, f->names, f->assocs, &f->cluster, &err) < 0) {
		mf_print_error("metrics: %s", err.text);
		rc = MF_EXIT_INPUT;
	}
	g_free(text);
	return rc;
}

/* mf_live_pending_fn: count the job in F (ARG) as of F's timestamp. */
static void _live_job(const char *acct, const char *user, const char *part,
		      double prio, uint32_t job_id, time_t submit, void *arg)
{
	_fig_t *f = arg;

	_add_pending(f, acct, user, part, prio, job_id, submit,
		     (time_t) f->timestamp);
}

static int _live_pending(_fig_t *f)
{
	static const char *const sprio[] = { "sprio", "-h", "-o",
					     "%i|%r|%u|%Y", NULL };
	static const char *const squeue[] = { "squeue", "-h", "-t", "PD",
					      "-o", "%A|%a|%V", NULL };
	char *q = NULL, *p = NULL;
	int rc = MF_EXIT_INPUT;

	if (!_run(squeue, &q) && !_run(sprio, &p)) {
		mf_live_pending(q, p, (time_t) f->timestamp, _live_job, f);
		rc = MF_EXIT_OK;
	}
	g_free(q);
	g_free(p);
	return rc;
}

/* The algorithm named in `scontrol show config`'s PriorityFlags, or NULL
 * (reported). */
static const char *_live_algorithm(void)
{
	static const char *const argv[] = { "scontrol", "show", "config",
					     NULL };
	const char *algo;
	char *text;

	if (_run(argv, &text))
		return NULL;
	algo = mf_live_algorithm(text);
	g_free(text);
	return algo;
}

/* Read the options of ARGV into IO and *OUTPUT, and check that they ask
 * for either --live or the inputs.  Returns an exit status (errors
 * reported), or MF_IOPT_HELP after --help. */
static int _metrics_parse_args(int argc, char **argv, mf_iopts_t *io,
			       const char **output)
{
	/* every input option but --cluster (also the label) and --live */
	const unsigned inputs = _cmd.mask & ~(MF_IOPT_BIT(CLUSTER) |
					      MF_IOPT_BIT(LIVE));
	bool live;
	int rc = mf_iopt_parse(io, argc, argv, &_cmd, output);

	if (!rc && mf_iopt_no_operand(argc, argv, &_cmd))
		rc = MF_EXIT_USAGE;
	live = io->given & MF_IOPT_BIT(LIVE);
	if (!rc && live == !!(io->given & inputs)) {
		mf_print_error("metrics: give --live or the inputs (--snapshot "
			     "DIR or the file options), not %s",
			     live ? "both" : "neither");
		rc = MF_EXIT_USAGE;
	}
	return rc;
}

/* Set up F, empty, for the cluster CLUSTER (may be NULL).  Returns
 * nothing. */
static void _fig_init(_fig_t *f, const char *cluster)
{
	f->names = g_string_chunk_new(1 << 14);
	f->assocs = g_array_new(FALSE, TRUE, sizeof(mf_metrics_assoc_t));
	f->pending = g_array_new(FALSE, TRUE, sizeof(mf_metrics_pending_t));
	f->pending_at = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					      NULL);
	f->first = g_array_new(FALSE, TRUE, sizeof(_first_t));
	f->cluster = cluster ? g_strdup(cluster) : NULL;
}

/* Free what F holds.  Returns nothing. */
static void _fig_clear(_fig_t *f)
{
	g_free(f->cluster);
	g_hash_table_destroy(f->pending_at);
	g_array_free(f->assocs, TRUE);
	g_array_free(f->pending, TRUE);
	g_array_free(f->first, TRUE);
	g_string_chunk_free(f->names);
}

/* Write the metrics of F (from LIVE sources or a snapshot) to OUTPUT, or
 * to stdout if it is NULL or "-".  Returns an exit status. */
static int _metrics_write(const _fig_t *f, bool live, const char *output)
{
	mf_metrics_t m = {
		.cluster = f->cluster,
		.source = live ? "live" : "snapshot",
		.algorithm = f->algorithm,
		.timestamp = f->timestamp,
		.assocs = (const mf_metrics_assoc_t *) f->assocs->data,
		.n_assocs = f->assocs->len,
		.pending = (const mf_metrics_pending_t *) f->pending->data,
		.n_pending = f->pending->len,
	};
	mf_error_t e;
	GString *g;
	int rc = MF_EXIT_OK;

	if (output && strcmp(output, "-")) {
		if (mf_metrics_write_file(output, &m, &e) < 0) {
			mf_print_error("metrics: %s", e.text);
			return MF_EXIT_INPUT;
		}
		return MF_EXIT_OK;
	}
	g = g_string_new(NULL);
	mf_metrics_format(g, &m);
	if (fwrite(g->str, 1, g->len, stdout) != g->len || fflush(stdout)) {
		mf_print_error("metrics: cannot write to stdout");
		rc = MF_EXIT_INPUT;
	}
	g_string_free(g, TRUE);
	return rc;
}

int cmd_metrics(int argc, char **argv)
{
	const char *output = NULL;   /* NULL or "-": stdout */
	_fig_t f = { 0 };
	mf_iopts_t io;
	bool live;
	int rc;

	rc = _metrics_parse_args(argc, argv, &io, &output);
	live = io.given & MF_IOPT_BIT(LIVE);
	if (!rc && !live)
		rc = mf_iopt_finish(&io, &_cmd);
	if (rc) {
		mf_iopt_clear(&io);
		return rc == MF_IOPT_HELP ? MF_EXIT_OK : rc;
	}

	_fig_init(&f, io.o.cluster);
	if (live) {
		f.timestamp = (double) time(NULL);
		f.algorithm = _live_algorithm();
		rc = f.algorithm ? _live_assocs(&f) : MF_EXIT_INPUT;
		if (!rc)
			rc = _live_pending(&f);
	} else {
		rc = _from_inputs(&io, &f);
	}
	if (!rc)
		rc = _metrics_write(&f, live, output);
	_fig_clear(&f);
	mf_iopt_clear(&io);
	return rc;
}
