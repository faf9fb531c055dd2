/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mfprio why JOB_A JOB_B: which of two pending jobs the scheduler takes
 * first, and why, in sentences with the numbers.
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
#include "cmd_error.h"
#include "input_opts.h"
#include "json_out.h"
#include "priority_json.h"
#include "priority_run.h"
#include "why_compare.h"
#include "why_out.h"

static const char _usage_head[] =
"Usage: mfprio why JOB_A JOB_B --snapshot DIR | --conf FILE --jobs FILE\n"
"                  [--qos FILE] [--assoc FILE [--usage FILE]] [--json] ...\n"
"\n"
"Say which of two pending jobs the scheduler takes first and why: the\n"
"partition tier if that decides it, else the priority terms that differ,\n"
"largest first, and what would change the order.\n"
"\n";

/* --help: the command, its input options (input_opts.def), --json. */
static const mf_iopt_help_t _help = {
	.head = _usage_head,
	.mask = MF_IOPT_PRIORITY_INPUTS,
	.own = "  --json             one JSON object instead of sentences; "
	       "see mfprio(1)\n",
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
		mf_cmd_error("why: %s and %s are the same job", ida, idb);
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

/* why's operands (two job ids), then the comparison.  Returns an exit
 * status. */
static int _why_run(mf_iopts_t *io, int n, char **ops, bool json)
{
	int rc;

	if (n != 2) {
		mf_cmd_error("why: two job ids are needed (JOB_A JOB_B)");
		mf_iopt_usage(stderr, &_help);
		return MF_EXIT_USAGE;
	}
	for (int i = 0; i < 2; i++) {
		if (!g_ascii_isdigit(*ops[i])) {
			mf_cmd_error("why: '%s' is not a job id (JOBID, or an "
				     "array task ARRAYID_TASK)", ops[i]);
			return MF_EXIT_USAGE;
		}
	}
	if ((rc = mf_iopt_finish(io, "why")))
		return rc;
	return _why(io, ops[0], ops[1], json);
}

int cmd_why(int argc, char **argv)
{
	return mf_iopt_main(argc, argv, &_help, _why_run);
}
