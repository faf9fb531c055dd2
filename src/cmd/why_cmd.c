/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mfprio why JOB_A JOB_B: which of two pending jobs the scheduler takes
 * first, and why, in sentences with the numbers.
 *
 * mfprio why JOBID: why the user's job waits (wait_job.h), from the live
 * cluster by the user's own commands (why_live.h) into a directory
 * removed afterwards, or from --snapshot DIR holding the same dumps: both
 * read and answer by the same code.
 *
 * The two are compared in the partition of highest PriorityTier that both
 * are queued in; with none in common, each in its own first partition.  A
 * higher tier is taken first whatever the priorities; within a tier, the
 * higher priority, then the lower job id.  The terms that differ are
 * listed largest first; then what would change the order: the age the
 * later job would still gain (its crossing time, when age can close the
 * gap before both reach PriorityMaxAge) and the fair-share factor it would
 * need.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "cmd.h"
#include "exit_status.h"
#include "input_opts.h"
#include "json_out.h"
#include "priority_json.h"
#include "priority_run.h"
#include "wait_dump.h"
#include "wait_job.h"
#include "wait_out.h"
#include "why_compare.h"
#include "why_live.h"
#include "why_out.h"

static const char _usage_head[] =
"Usage: mfprio why JOBID [--snapshot DIR] [--json]\n"
"       mfprio why JOB_A JOB_B --snapshot DIR | --conf FILE --jobs FILE\n"
"                  [--qos FILE] [--assoc FILE [--usage FILE]] [--json] ...\n"
"\n"
"With one job id: why your pending job waits, where it stands, when that\n"
"changes and what you can do, asked of the live cluster by your own\n"
"scontrol, sprio and sshare (or read from DIR: jobs, config, sprio,\n"
"sshare, time; see mfprio(1)).  When it may start: Slurm's own estimate\n"
"(the job's StartTime, as `squeue --start` shows it), what it assumes,\n"
"or why there is none.\n"
"\n"
"Where the cluster's PrivateData hides things from you, why says so and\n"
"gives what you may see:\n"
"  jobs   other users' jobs: no position in the queue, no other job's\n"
"         priority; only how many of your own jobs are ahead (your own\n"
"         job's reason and start estimate are still shown)\n"
"  usage  other users' usage: the fair-share of your own associations\n"
"         only; a usage limit on an account whose usage you cannot see\n"
"         is said to be hidden, with no figure or lift time\n"
"  users  other users' associations (sacctmgr): a QOS your association\n"
"         allows may not be visible, and it says so\n"
"\n"
"With two:\n"
"Say which of two pending jobs the scheduler takes first and why: the\n"
"partition tier if that decides it, else the priority terms that differ,\n"
"largest first, and what would change the order.\n"
"\n";

/* The command: its --help, its input options (input_opts.def), --json. */
static const mf_iopt_cmd_t _cmd = {
	.name = "why",
	.head = _usage_head,
	.mask = MF_IOPT_PRIORITY_INPUTS,
	.own = "  --json             one JSON object instead of sentences; "
	       "see mfprio(1)\n",
	.need = MF_IOPT_BIT(CONF) | MF_IOPT_BIT(JOBS),
	.longopts = mf_iopt_json_opts,
	.take = mf_iopt_take_json,
};


static int _why(mf_iopts_t *io, const char *ida, const char *idb, bool json)
{
	mf_prun_ctx_t c = { 0 };
	const mf_prun_job_t *a, *b;
	const mf_prun_row_t *ra, *rb;
	mf_why_t w = { 0 };
	int rc = mf_iopt_run(io, &c);

	if (!rc) {
		io->o.explain = ida;
		rc = mf_prun_explained(&c, &io->o, &a);
	}
	if (!rc) {
		io->o.explain = idb;
		rc = mf_prun_explained(&c, &io->o, &b);
	}
	io->o.explain = NULL;
	if (!rc && a == b) {
		mf_print_error("why: %s and %s are the same job", ida, idb);
		rc = MF_EXIT_USAGE;
	}
	if (rc) {
		mf_prun_clear(&c);
		return rc;
	}
	mf_why_pick_rows(&c, a, b, &ra, &rb);
	mf_why_order(a, b, ra, rb, &w);
	mf_why_analyse(&c, &w);
	if (json)
		mf_why_print_json(stdout, &c, &io->o, &w);
	else
		mf_why_print_text(stdout, &c, &w, io->o.now);
	mf_prun_clear(&c);
	return MF_EXIT_OK;
}

/* Remove the dumps of the live run in DIR, and DIR.  Returns nothing. */
static void _remove_dumps(const char *dir)
{
	static const char *const names[] = { MF_SNAP_JOBS, MF_SNAP_CONFIG,
		MF_SNAP_SPRIO, MF_SNAP_SSHARE, MF_SNAP_WHY_ASSOC,
		MF_SNAP_WHY_QOS, MF_SNAP_WHY_RUNNING, MF_SNAP_WHY_PARTS,
		MF_SNAP_WHY_GROUPS, MF_SNAP_TIME };

	for (size_t i = 0; i < G_N_ELEMENTS(names); i++) {
		char *p = g_build_filename(dir, names[i], NULL);

		remove(p);
		g_free(p);
	}
	remove(dir);
}

/* Why job ID waits: from the dumps in DIR, else live.  Returns an exit
 * status. */
static int _wait(const char *dir, const char *id, bool json)
{
	mf_wait_dump_t d = { 0 };
	mf_wait_t w = { 0 };
	mf_error_t err = { { 0 } };
	char *tmp = NULL;
	int rc = MF_EXIT_OK;

	if (!dir && !(dir = tmp = g_dir_make_tmp("mfprio-why-XXXXXX",
						 NULL))) {
		mf_print_error("why: cannot make a temporary directory");
		return MF_EXIT_INPUT;
	}
	if (tmp)
		rc = mf_why_live_dump(tmp, id);
	if (!rc && (mf_wait_dump_load(dir, id, &d, &err) ||
		    mf_wait_describe(&d, &w, &err))) {
		mf_print_error("why: %s", err.text);
		rc = MF_EXIT_INPUT;
	}
	if (!rc && json)
		mf_wait_print_json(stdout, &w);
	else if (!rc)
		mf_wait_print_text(stdout, &w);
	mf_wait_clear(&w);
	mf_wait_dump_clear(&d);
	if (tmp)
		_remove_dumps(tmp);
	g_free(tmp);
	return rc;
}

/* why's operands (two job ids), then the comparison.  Returns an exit
 * status. */
static int _why_run(mf_iopts_t *io, int n, char **ops, void *arg0)
{
	bool json = *(bool *) arg0;
	int rc;

	if (n == 1 && g_ascii_isdigit(*ops[0])) {
		if (io->o.conf || io->o.jobs || io->o.qos || io->o.assoc ||
		    io->o.usage) {
			mf_print_error("why: with one job id, only --snapshot "
				     "and --json are taken");
			return MF_EXIT_USAGE;
		}
		return _wait(io->o.snapshot, ops[0], json);
	}
	if (n != 2) {
		mf_print_error("why: one job id (JOBID) or two (JOB_A JOB_B) "
			     "are needed");
		mf_iopt_usage(stderr, &_cmd);
		return MF_EXIT_USAGE;
	}
	for (int i = 0; i < 2; i++) {
		if (!g_ascii_isdigit(*ops[i])) {
			mf_print_error("why: '%s' is not a job id (JOBID, or an "
				     "array task ARRAYID_TASK)", ops[i]);
			return MF_EXIT_USAGE;
		}
	}
	if ((rc = mf_iopt_finish(io, &_cmd)))
		return rc;
	return _why(io, ops[0], ops[1], json);
}

int cmd_why(int argc, char **argv)
{
	bool json = false;

	return mf_iopt_main(argc, argv, &_cmd, _why_run, &json);
}
