/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mfprio priority: the priorities of a cluster's pending jobs, from the
 * dumps an administrator can take anywhere, printed as `sprio -l` prints
 * them; or, with --explain, why one job ranks where it does.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd.h"
#include "exit_status.h"
#include "explain_text.h"
#include "slurm_release.h"
#include "age_factor.h"
#include "fairshare.h"
#include "input_opts.h"
#include "jobs_input.h"
#include "job_fs_factor.h"
#include "priority.h"
#include "priority_conf.h"
#include "priority_flags.h"
#include "priority_json.h"
#include "priority_run.h"
#include "priority_stream.h"
#include "sprio_table.h"
#include "release_table.h"
#include "slurm_conf.h"
#include "snapshot.h"
#include "snapshot_dir.h"
#include "timestr.h"

static const char _usage_head[] =
"Usage: mfprio priority --conf FILE --jobs FILE [--qos FILE]\n"
"                       [--assoc FILE [--usage FILE]] [--assoc-prio FILE]\n"
"                       [--now TIME] [--release VER] [-P] [-n] [-l]\n"
"                       [-jJOBS] [-u USERS] [-p PARTS] [-S SORT] [-w]\n"
"                       [--flags FLAGS] [--set KEY=VALUE]... [--cluster NAME]\n"
"                       [--explain JOBID] [--json]\n"
"       mfprio priority --snapshot DIR [any option above]\n"
"\n"
"Compute the priority of every pending job and print it as `sprio -l`\n"
"does (weighted factors), or explain one job's priority and rank.\n"
"\n";

static const char _usage_own[] =
"  -jLIST             only these job ids (comma-separated; attached, as\n"
"                     sprio takes it: --jobs is the dump)\n"
"  -u, --user LIST    only these users' jobs\n"
"  -p, --partition LIST  only the rows of these partitions\n"
"  -S, --sort LIST    order of the rows as sprio's: fields i (job id),\n"
"                     r (partition), u (user), y (priority), a, f, j, p,\n"
"                     q, t (age, fair-share, job size, partition, QOS, TRES\n"
"                     terms), N (nice); '-' before one: descending\n"
"                     (default: i)\n"
"  -w, --weights      the weights of the factors (a Weights row), no job\n"
"  -l, --long         taken, as sprio takes it: the table is sprio -l's\n"
"  -P, --parsable     '|'-separated fields, no padding\n"
"  -n, --noheader     no header line\n"
"  --explain JOBID    every factor of JOBID with its inputs and weight, and\n"
"                     the jobs ranked just above and below it\n"
"  --json             one JSON object: the settings used and the rows (or\n"
"                     the explanation); see mfprio(1)\n";

/* priority's own long options (input_opts.h's are from 400 on) */
enum {
	OPT_EXPLAIN = 256, OPT_JSON,
};

static int _prio_own(void *arg0, int ch, const char *arg);

static const struct option _own_opts[] = {
	{ "explain", required_argument, NULL, OPT_EXPLAIN },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "user", required_argument, NULL, 'u' },
	{ "partition", required_argument, NULL, 'p' },
	{ "sort", required_argument, NULL, 'S' },
	{ "weights", no_argument, NULL, 'w' },
	MF_IOPT_TABLE_OPTS,
	{ NULL, 0, NULL, 0 },
};

/* The command: its --help, its input options (input_opts.def), its own. */
static const mf_iopt_cmd_t _cmd = {
	.name = "priority",
	.head = _usage_head,
	.mask = MF_IOPT_PRIORITY_INPUTS,
	.own = _usage_own,
	.need = MF_IOPT_BIT(CONF) | MF_IOPT_BIT(JOBS),
	.longopts = _own_opts,
	.shortopts = "j:u:p:S:wlPn",
	.take = _prio_own,
};

/* priority_run.h's types, by the names this file uses */
typedef mf_prun_job_t _job_t;
typedef mf_prun_row_t _row_t;
typedef mf_prun_opts_t _opts_t;
typedef mf_prun_ctx_t _ctx_t;

/* Read the inputs, then stream the jobs file into the table (or print
 * the weights of -w).  Returns an exit status. */
static int _stream_table(_ctx_t *c, const _opts_t *o, FILE *out)
{
	mf_pstream_t st;
	uint64_t *order;
	int rc;

	if ((rc = mf_prun_load_inputs(c, o, false)))
		return rc;
	if (o->weights) {
		mf_sprio_print_weights(c, o, out);
		return MF_EXIT_OK;
	}
	rc = mf_pstream_run(&st, c, o);
	if (!rc) {
		order = mf_pstream_order(&st, o->sort);
		mf_sprio_print_lean(&st, order, o, out);
		g_free(order);
	}
	mf_pstream_clear(&st);
	return rc;
}

/* Priority's own option CH with ARG into the options ARG0 (the
 * mf_prun_opts_t of the inputs).  Returns 0, or -1 after printing a usage error. */
static int _prio_own(void *arg0, int ch, const char *arg)
{
	_opts_t *o = arg0;

	switch (ch) {
	case 'j':
		g_strfreev(o->sel_jobs);
		o->sel_jobs = g_strsplit(arg, ",", -1);
		break;
	case 'u':
		g_strfreev(o->sel_users);
		o->sel_users = g_strsplit(arg, ",", -1);
		break;
	case 'p':
		g_strfreev(o->sel_parts);
		o->sel_parts = g_strsplit(arg, ",", -1);
		break;
	case 'S':
		if (!mf_pstream_sort_valid(arg)) {
			mf_print_error("-S '%s': not a sort list of the fields "
				     "i r u y a f j p q t N", arg);
			return -1;
		}
		o->sort = arg;
		break;
	case 'w': o->weights = true; break;
	case OPT_EXPLAIN: o->explain = arg; break;
	case OPT_JSON: o->json = true; break;
	case 'P': o->parsable = true; break;
	case 'n': o->noheader = true; break;
	}
	return 0;
}

/* Compute and print what O asks: the plain table streamed, or the
 * explanation, the JSON or the table of --weights from the loaded
 * jobs.  Returns an exit status. */
static int _prio_run(_ctx_t *c, const _opts_t *o)
{
	int rc;

	if ((!o->explain && !o->json) || o->weights) {
		/* the plain table: streamed, for dumps of any size */
		rc = _stream_table(c, o, stdout);
		if (!rc && fflush(stdout))
			rc = MF_EXIT_INPUT;
		return rc;
	}
	if ((rc = mf_prun_run(c, o)))
		return rc;
	if (o->explain && o->json)
		rc = mf_prun_explain_json(c, o, stdout);
	else if (o->explain)
		rc = mf_expl_print_text(c, o, stdout);
	else if (o->json)
		rc = mf_prun_print_json(c, o, stdout);
	else
		mf_sprio_print_table(c, o, stdout);
	if (fflush(stdout))
		rc = MF_EXIT_INPUT;
	return rc;
}

int cmd_priority(int argc, char **argv)
{
	/* the inputs, --now, --release and the what-ifs: input_opts, as
	 * every command takes them; the command's own options beside them
	 * in the same mf_prun_opts_t */
	mf_iopts_t io;
	_opts_t *o = &io.o;
	_ctx_t c = { 0 };
	int rc;

	rc = mf_iopt_parse(&io, argc, argv, &_cmd, o);
	if (!rc && mf_iopt_no_operand(argc, argv, &_cmd))
		rc = MF_EXIT_USAGE;
	if (!rc)
		rc = mf_iopt_finish(&io, &_cmd);
	if (!rc)
		rc = _prio_run(&c, o);
	mf_prun_clear(&c);
	mf_iopt_clear(&io);
	g_strfreev(o->sel_jobs);
	g_strfreev(o->sel_users);
	g_strfreev(o->sel_parts);
	return rc == MF_IOPT_HELP ? MF_EXIT_OK : rc;
}
