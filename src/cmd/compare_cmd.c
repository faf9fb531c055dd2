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
#include "exit_status.h"
#include "slurm_release.h"
#include "input_opts.h"
#include "json_out.h"
#include "priority_flags.h"
#include "priority_json.h"
#include "priority_run.h"
#include "compare_moves.h"
#include "compare_out.h"
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
"  --json             one JSON object: both settings, the jobs and the\n"
"                     users; see mfprio(1)\n"
"  -P, --parsable     '|'-separated fields, no padding, no summary\n"
"  -n, --noheader     no header lines\n";

static const char _usage_tail[] =
"PriorityDecayHalfLife, PriorityCalcPeriod and PriorityUsageResetPeriod\n"
"change how usage decays from now on: the usage read is what decay had\n"
"left when it was dumped, so they change no figure here (a note says so).\n";

enum { OPT_JSON = 256 };

/* compare's own option CH into the options ARG0 (an mf_prun_opts_t).
 * Returns 0. */
static int _cmp_own(void *arg0, int ch, const char *arg)
{
	mf_prun_opts_t *o = arg0;

	(void) arg;
	if (ch == OPT_JSON)
		o->json = true;
	else if (ch == 'P')
		o->parsable = true;
	else
		o->noheader = true;
	return 0;
}

static const struct option _own_opts[] = {
	{ "json", no_argument, NULL, OPT_JSON },
	{ "parsable", no_argument, NULL, 'P' },
	{ "noheader", no_argument, NULL, 'n' },
	{ NULL, 0, NULL, 0 },
};

/* The command: its --help, its input options (input_opts.def), its own. */
static const mf_iopt_cmd_t _cmd = {
	.name = "compare",
	.head = _usage_head,
	.mask = MF_IOPT_PRIORITY_INPUTS,
	.own = _usage_own,
	.tail = _usage_tail,
	.need = MF_IOPT_BIT(CONF) | MF_IOPT_BIT(JOBS),
	.longopts = _own_opts,
	.shortopts = "Pn",
	.take = _cmp_own,
};

/* Keys that act on usage's decay, not on a snapshot's figures. */
static bool _decay_only(const char *key)
{
	return !g_ascii_strcasecmp(key, "PriorityDecayHalfLife") ||
	       !g_ascii_strcasecmp(key, "PriorityCalcPeriod") ||
	       !g_ascii_strcasecmp(key, "PriorityUsageResetPeriod");
}

/* A note for each what-if of SETS that changes no figure here.  Returns
 * nothing. */
static void _decay_notes(const GPtrArray *sets)
{
	for (guint i = 0; sets && i < sets->len; i++) {
		const mf_conf_pair_t *p = sets->pdata[i];

		if (_decay_only(p->key))
			fprintf(stderr, "mfprio: note: --set %s: it changes "
				"how usage decays from the time of the dumps "
				"on; the usage read is what decay had left "
				"then, so no figure here changes\n", p->key);
	}
}

/* Compute both sides and print.  Returns an exit status. */
static int _compare(mf_prun_opts_t o[2])
{
	mf_prun_ctx_t c[2] = { { 0 }, { 0 } };
	GHashTable *by_id = g_hash_table_new(g_direct_hash, g_direct_equal);
	GPtrArray *jobs = g_ptr_array_new_with_free_func(g_free);
	GPtrArray *users = NULL;
	uint32_t moved = 0, changed = 0;
	int rc = MF_EXIT_OK;

	for (int s = 0; s < 2 && !rc; s++)
		rc = mf_prun_run(&c[s], &o[s]);
	if (!rc) {
		mf_cmp_side(&c[0], 0, by_id, jobs);
		mf_cmp_side(&c[1], 1, by_id, jobs);
		g_ptr_array_sort(jobs, mf_cmp_by_move);
		for (guint i = 0; i < jobs->len; i++) {
			const mf_cmp_job_t *e = jobs->pdata[i];

			moved += mf_cmp_rank_move(e) != 0;
			changed += mf_cmp_prio_change(e) != 0;
		}
		users = mf_cmp_users(jobs);
		if (o[0].json)
			mf_cmp_print_json(stdout, c, o, jobs, users, moved, changed);
		else
			mf_cmp_print_text(stdout, &o[1], jobs, users, moved,
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
	/* the inputs as every command takes them; the what-ifs (--set,
	 * --flags, --damp) are "after"'s only */
	mf_iopts_t io;
	mf_prun_opts_t o[2];
	int rc;

	rc = mf_iopt_parse(&io, argc, argv, &_cmd, &io.o);
	if (!rc)
		_decay_notes(io.o.sets);
	if (!rc && mf_iopt_no_operand(argc, argv, &_cmd))
		rc = MF_EXIT_USAGE;
	if (!rc)
		rc = mf_iopt_finish(&io, &_cmd);
	if (!rc) {
		o[0] = io.o;
		o[0].sets = NULL;
		o[1] = io.o;
		o[1].quiet = true;
		rc = _compare(o);
	}
	mf_iopt_clear(&io);
	if (!rc && fflush(stdout))
		rc = MF_EXIT_INPUT;
	return rc == MF_IOPT_HELP ? MF_EXIT_OK : rc;
}
