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
#include "exit_status.h"
#include "slurm_release.h"
#include "input_opts.h"
#include "jobs_input.h"
#include "qos_input.h"
#include "json_out.h"
#include "priority.h"
#include "priority_conf.h"
#include "priority_flags.h"
#include "replay.h"
#include "replay_out.h"
#include "replay_sides.h"
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
"                     samples in all)\n";

enum { OPT_FROM = 300, OPT_TO, OPT_SHARE,
       OPT_AT_END, OPT_TABLE, OPT_JSON, OPT_SVG, OPT_SHOW, OPT_TOP,
       OPT_EVERY };

/* replay's own options (the inputs and the what-ifs are input_opts'). */
typedef struct {
	const char *from, *to;
	const char *table, *svg, *show;
	GPtrArray *shares;           /* char* (argv's) */
	int at_end;                  /* -1: from the conf */
	int top;                     /* -1: unset */
	uint32_t every;
	bool json;
} _opts_t;

static int _replay_own(void *arg0, int ch, const char *arg);

static const struct option _own_opts[] = {
	{ "from", required_argument, NULL, OPT_FROM },
	{ "to", required_argument, NULL, OPT_TO },
	{ "share", required_argument, NULL, OPT_SHARE },
	{ "charge-at-end", required_argument, NULL, OPT_AT_END },
	{ "table", required_argument, NULL, OPT_TABLE },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "svg", required_argument, NULL, OPT_SVG },
	{ "show", required_argument, NULL, OPT_SHOW },
	{ "top", required_argument, NULL, OPT_TOP },
	{ "every", required_argument, NULL, OPT_EVERY },
	{ NULL, 0, NULL, 0 },
};

/* The command: its --help, its input options (input_opts.def), its own. */
static const mf_iopt_cmd_t _cmd = {
	.name = "replay",
	.head = _usage_head,
	.mask = MF_IOPT_BIT(SNAPSHOT) | MF_IOPT_BIT(CONF) | MF_IOPT_BIT(ASSOC) |
		MF_IOPT_BIT(QOS) | MF_IOPT_BIT(CLUSTER) | MF_IOPT_WHATIFS,
	.own = _usage_own,
	.need = MF_IOPT_BIT(CONF) | MF_IOPT_BIT(ASSOC),
	.longopts = _own_opts,
	.take = _replay_own,
};

/* --charge-at-end ARG into O.  Returns 0, or -1 for a bad value
 * (reported). */
static int _parse_at_end(_opts_t *o, const char *arg)
{
	if (strchr("yY1", *arg) && *arg)
		o->at_end = 1;
	else if (strchr("nN0", *arg) && *arg)
		o->at_end = 0;
	else {
		mf_print_error("--charge-at-end '%s': y or n", arg);
		return -1;
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
			mf_print_error("--table '%s': series, final, jobs "
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
			mf_print_error("--%s '%s': not a whole number "
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

/* replay's own option CH with ARG into ARG0 (an _opts_t).  Returns 0, or
 * -1 for a bad value (reported). */
static int _replay_own(void *arg0, int ch, const char *arg)
{
	_opts_t *o = arg0;

	switch (ch) {
	case OPT_FROM: o->from = arg; return 0;
	case OPT_TO: o->to = arg; return 0;
	case OPT_AT_END: return _parse_at_end(o, arg);
	case OPT_SHARE: g_ptr_array_add(o->shares, (char *) arg); return 0;
	case OPT_JSON: o->json = true; return 0;
	case OPT_SVG: o->svg = arg; return 0;
	case OPT_SHOW: o->show = arg; return 0;
	default: return _parse_output(o, ch, arg);
	}
}

/* Read the options of ARGV into IO and O, and the inputs (the snapshot's
 * where options name none).  Returns an exit status, or MF_IOPT_HELP
 * after --help. */
static int _parse(mf_iopts_t *io, _opts_t *o, int argc, char **argv)
{
	int rc = mf_iopt_parse(io, argc, argv, &_cmd, o);

	if (rc)
		return rc;
	if (optind != argc - 1) {
		mf_print_error("replay: %s", optind < argc ?
			     "one SACCT_FILE only" :
			     "the sacct dump (SACCT_FILE) is required");
		return MF_EXIT_USAGE;
	}
	return mf_iopt_finish(io, &_cmd);
}

/* The settings and trees of both sides of C, the QOS priorities (in
 * *QOS, NULL without --qos) and the history HIST.  *CLUSTER may be set
 * from slurm.conf.  Returns an exit status (errors reported). */
static int _replay_load(mf_rctx_t *c, const mf_iopts_t *io, _opts_t *o,
			const char *hist, char **cluster, GHashTable **qos)
{
	const mf_prun_opts_t *in = &io->o;
	mf_error_t e;
	int rc;

	if ((rc = mf_rside_settings(&c->s[0], in->conf, NULL, o->at_end, false,
			    cluster)) ||
	    (rc = mf_rside_settings(&c->s[1], in->conf, io->sets, o->at_end,
				    true, NULL)))
		return rc;
	for (int side = 0; side < 2; side++) {
		if (!(c->s[side].tree = mf_snapshot_load_cluster(in->assoc, NULL,
								 *cluster,
								 &e))) {
			mf_print_error("%s", e.text);
			return MF_EXIT_INPUT;
		}
	}
	for (guint i = 0; i < o->shares->len; i++)
		if (mf_rside_share(c->s[1].tree, o->shares->pdata[i]))
			return MF_EXIT_USAGE;
	if (in->qos && !(*qos = mf_qos_load(in->qos, &e))) {
		mf_print_error("%s", e.text);
		return MF_EXIT_INPUT;
	}
	if (!(c->h = mf_sacct_load(hist, &e))) {
		mf_print_error("%s", e.text);
		return MF_EXIT_INPUT;
	}
	return MF_EXIT_OK;
}

/* The period replayed, in *FROM and *TO: the history's unless --from or
 * --to say.  Returns an exit status (errors reported). */
static int _replay_period(mf_rctx_t *c, const _opts_t *o, time_t *from,
			  time_t *to)
{
	mf_error_t e;

	mf_replay_period(c->h, from, to);
	if (o->from && mf_time_point(o->from, time(NULL), from, &e)) {
		mf_print_error("--from %s", e.text);
		return MF_EXIT_USAGE;
	}
	if (o->to && mf_time_point(o->to, time(NULL), to, &e)) {
		mf_print_error("--to %s", e.text);
		return MF_EXIT_USAGE;
	}
	if (*to < *from) {
		mf_print_error("replay: the period ends (--to) before it starts "
			     "(--from)");
		return MF_EXIT_USAGE;
	}
	mf_replay_clip_notes(c->h, *from, *to);
	return MF_EXIT_OK;
}

/* Write what O asks of the replay C of HIST (FROM to TO): the SVG, the
 * JSON or a CSV table.  Returns an exit status. */
static int _replay_output(mf_rctx_t *c, const _opts_t *o, const char *hist,
			  time_t from, time_t to)
{
	char **show = o->show ? g_strsplit(o->show, ",", -1) : NULL;
	bool *sel = mf_rctx_selected(c, show, o->top > 0 ? o->top : -1);
	FILE *out = stdout;
	int rc = MF_EXIT_OK;

	if (o->svg) {
		bool *svg_sel = show || o->top > 0 ? sel :
				mf_rctx_selected(c, NULL, 6);

		rc = mf_replay_svg(c, svg_sel, o->svg);
		if (svg_sel != sel)
			g_free(svg_sel);
		if (rc || !strcmp(o->svg, "-"))
			goto done;
	}
	if (o->json) {
		mf_replay_json(c, sel, from, to, out);
	} else {
		const char *t = o->table ? o->table : "series";

		fprintf(out, "# mfprio replay of %s: %s\n", hist,
			mf_replay_note);
		if (!strcmp(t, "series"))
			mf_replay_csv_series(c, sel, out);
		else if (!strcmp(t, "final"))
			mf_replay_csv_final(c, out);
		else if (!strcmp(t, "jobs"))
			mf_replay_csv_jobs(c, out);
		else
			mf_replay_csv_users(c, out);
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
static int _replay(mf_rctx_t *c, const mf_iopts_t *io, _opts_t *o,
		   const char *hist)
{
	GHashTable *qos = NULL;
	char *cluster = g_strdup(io->o.cluster);
	time_t from, to;
	GThread *t;
	int rc;

	if ((rc = _replay_load(c, io, o, hist, &cluster, &qos)) ||
	    (rc = _replay_period(c, o, &from, &to)))
		goto done;
	mf_rctx_prepare(c, qos, from, to, o->every);
	/* "after" in a thread of its own, "before" in this one */
	t = g_thread_new("replay-after", mf_rside_run, &c->s[1]);
	(void)mf_rside_run(&c->s[0]);
	g_thread_join(t);
	if ((rc = c->s[0].status) || (rc = c->s[1].status))
		goto done;
	rc = _replay_output(c, o, hist, from, to);
done:
	g_free(cluster);
	if (qos)
		g_hash_table_destroy(qos);
	return rc;
}

int cmd_replay(int argc, char **argv)
{
	_opts_t o = { .at_end = -1, .top = -1 };
	mf_iopts_t io;
	mf_rctx_t c = { 0 };
	int rc;

	o.shares = g_ptr_array_new();
	rc = _parse(&io, &o, argc, argv);
	if (!rc)
		rc = _replay(&c, &io, &o, argv[argc - 1]);
	mf_rside_clear(&c.s[0]);
	mf_rside_clear(&c.s[1]);
	mf_sacct_free(c.h);
	if (c.users)
		g_ptr_array_unref(c.users);
	mf_iopt_clear(&io);
	g_ptr_array_unref(o.shares);
	return rc == MF_IOPT_HELP ? MF_EXIT_OK : rc;
}
