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
