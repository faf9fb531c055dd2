/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "exit_status.h"
#include "slurm_release.h"
#include "fairshare.h"
#include "fairshare_json.h"
#include "fs_run.h"
#include "input_opts.h"
#include "release_table.h"
#include "slurm_conf.h"
#include "snapshot_dir.h"
#include "sshare_fmt.h"
#include "sshare_tres.h"
#include "usage_input.h"

static const char _usage_head[] =
"Usage: mfprio fairshare --assoc FILE [--usage FILE] [--conf FILE]\n"
"                        [--flags FLAGS] [--damp N] [--set KEY=VALUE]...\n"
"                        [--release VER] [-a] [-l] [-P] [-n] [-m]\n"
"                        [-A ACCOUNTS] [-u USERS] [-o FORMAT] [--cluster NAME]\n"
"                        [--json]\n"
"       mfprio fairshare --snapshot DIR [any option above]\n"
"\n"
"Compute fair-share from a snapshot of a cluster and print it as\n"
"`sshare -a -l -P` of the release does: its columns (LevelFS under Fair\n"
"Tree only) and its empty cells (from 25.11 no FairShare on root and\n"
"account rows).  Of the conf, PriorityFlags and FairShareDampeningFactor\n"
"are read; without --usage no association has usage; without --conf the\n"
"slurm-version file is looked for beside the assoc file.  GrpTRESMins and\n"
"TRESRunMins are read from a usage file that is an assoc_mgr dump (a\n"
"snapshot's is), else empty.  No fair-share figure differs between the\n"
"releases.\n"
"\n";

static const char _usage_own[] =
"  -A, --accounts LIST  only the rows of these accounts (comma-separated):\n"
"                     each account's own row and its users' rows\n"
"  -u, --users LIST   only these users' rows (and the account rows)\n"
"  -o, --format LIST  these columns (comma-separated, as sshare -o takes\n"
"                     them) instead of sshare -l's\n"
"  -m, --partition    a Partition column after User, as sshare -m prints\n"
"                     it: a user's association on one partition (the assoc\n"
"                     dump's Partition column), empty for one without\n"
"  -a, --all, -l, --long, -P, --parsable  taken, as sshare takes them: the\n"
"                     output is always every user, long and '|'-separated\n"
"  -n, --noheader     no header line\n"
"  --json             one JSON object: the settings used and a row per\n"
"                     association; see mfprio(1)\n";

enum { OPT_JSON = 256 };

/* The row selection of sshare's -A and -u, its -m column, -o, -n and
 * --json: fairshare's own options. */
typedef struct {
	char **accounts;         /* NULL: every account */
	char **users;            /* NULL: every user */
	bool partition;          /* -m */
	const char *format;      /* -o LIST, or NULL */
	bool noheader, json;
} _select_t;

static int _fs_own(void *arg0, int ch, const char *arg);
static bool _in_list(char **list, const char *name);
static bool _keep_row(const mf_assoc_t *a, const void *sel_arg);
static const char *_tres_cell(const mf_assoc_t *a, mf_sshare_col_t col,
			      const void *tres_arg);

static const struct option _own_opts[] = {
	{ "json", no_argument, NULL, OPT_JSON },
	{ "accounts", required_argument, NULL, 'A' },
	{ "users", required_argument, NULL, 'u' },
	{ "partition", no_argument, NULL, 'm' },
	{ "all", no_argument, NULL, 'a' },
	{ "format", required_argument, NULL, 'o' },
	MF_IOPT_TABLE_OPTS,
	{ NULL, 0, NULL, 0 },
};

/* The command: its --help, its input options (input_opts.def), its own. */
static const mf_iopt_cmd_t _cmd = {
	.name = "fairshare",
	.head = _usage_head,
	.mask = MF_IOPT_FAIRSHARE_INPUTS,
	.own = _usage_own,
	.need = MF_IOPT_BIT(ASSOC),
	.longopts = _own_opts,
	.shortopts = "A:u:o:malPn",
	.take = _fs_own,
};

/* fairshare's own option CH with ARG into ARG0 (a _select_t).  Returns
 * 0. */
static int _fs_own(void *arg0, int ch, const char *arg)
{
	_select_t *sel = arg0;

	switch (ch) {
	case 'A':
		g_strfreev(sel->accounts);
		sel->accounts = g_strsplit(arg, ",", -1);
		break;
	case 'u':
		g_strfreev(sel->users);
		sel->users = g_strsplit(arg, ",", -1);
		break;
	case 'm': sel->partition = true; break;
	case 'o': sel->format = arg; break;
	case OPT_JSON: sel->json = true; break;
	case 'n': sel->noheader = true; break;
	default: break;          /* -a, -l, -P: taken */
	}
	return 0;
}

/* Whether NAME is in the NULL-terminated LIST (NULL: every name is). */
static bool _in_list(char **list, const char *name)
{
	if (!list)
		return true;
	for (char **l = list; *l; l++)
		if (!strcmp(*l, name))
			return true;
	return false;
}

/* Whether SEL (a _select_t) keeps A's row: an account row if its account
 * is selected, a user row if both its account and its user are. */
static bool _keep_row(const mf_assoc_t *a, const void *sel_arg)
{
	const _select_t *sel = sel_arg;

	return _in_list(sel->accounts, a->acct) &&
	       (!a->user || _in_list(sel->users, a->user));
}

/* mf_sshare_opts_t's tres: A's cell of COL from the assoc_mgr dump's
 * table TRES_ARG (an mf_sshare_tres_t). */
static const char *_tres_cell(const mf_assoc_t *a, mf_sshare_col_t col,
			      const void *tres_arg)
{
	const mf_sshare_tres_t *t = tres_arg;

	if (col == MF_SSHARE_GRP_TRES_MINS)
		return mf_sshare_tres_grp_mins(t, a->acct, a->user,
					       a->partition);
	return mf_sshare_tres_run_mins(t, a->acct, a->user, a->partition);
}

/* The settings of IO (settings.h: the conf, the what-ifs, the release,
 * the cluster; without a conf, a version file beside the assoc dump) into
 * S, their fair-share warnings printed, and the fair-share configuration
 * of them in *CFG.  Returns an exit status (errors reported). */
static int _fs_settle(const mf_iopts_t *io, mf_settings_t *s,
		      mf_fs_config_t *cfg)
{
	int rc = mf_iopt_settings(io, io->o.assoc, MF_SETTINGS_WARN_FS, s);

	if (rc)
		return rc;
	mf_fs_run_config(s, cfg);
	return MF_EXIT_OK;
}

/* Load the tree of IO's inputs, compute its fair share with the settings
 * SET and CFG and print it as sshare or as JSON, as SEL asks.  Returns an
 * exit status. */
static int _fs_run(const mf_iopts_t *io, const mf_settings_t *set,
		   const mf_fs_config_t *cfg, const _select_t *sel)
{
	const mf_prun_opts_t *o = &io->o;
	mf_error_t e;
	mf_tree_t *tree;
	mf_sshare_tres_t *tres = NULL;
	mf_sshare_cols_t cols;

	if (sel->format && mf_sshare_cols_parse(&cols, sel->format, &e)) {
		mf_print_error("fairshare: %s", e.text);
		return MF_EXIT_USAGE;
	}
	tree = mf_fs_run(o->assoc, o->usage, set, cfg, &e);
	if (!tree) {
		mf_print_error("%s", e.text);
		return MF_EXIT_INPUT;
	}
	if (sel->json) {
		char name[8];
		mf_fs_json_settings_t s = {
			.snapshot = o->snapshot, .assoc = o->assoc,
			.usage = o->usage, .conf = o->conf,
			.flags = set->pc->flags, .fs = *cfg,
			.release = mf_release_name(set->rel.release, name),
			.release_num = set->rel.release,
			.release_source = set->rel.source,
		};

		mf_fairshare_json(stdout, tree, &s);
	} else {
		mf_sshare_opts_t p = {
			.noheader = sel->noheader,
			.cols = sel->format ? &cols : NULL,
			.partition = sel->partition,
			.release = set->rel.release,
			.keep = sel->accounts || sel->users ? _keep_row :
				NULL,
			.keep_arg = sel,
			.tres = _tres_cell,
		};

		/* the usage file was read whole above: it loads again */
		if (o->usage && mf_usage_is_amgr(o->usage) &&
		    !(tres = mf_sshare_tres_load(o->usage, &e))) {
			mf_print_error("%s", e.text);
			mf_tree_destroy(tree);
			return MF_EXIT_INPUT;
		}
		p.tres_arg = tres;
		mf_sshare_print(stdout, tree, cfg->algo, &p);
		mf_sshare_tres_free(tres);
	}
	mf_tree_destroy(tree);
	return fflush(stdout) ? MF_EXIT_INPUT : MF_EXIT_OK;
}

int cmd_fairshare(int argc, char **argv)
{
	mf_iopts_t io;
	_select_t sel = { 0 };
	mf_settings_t s = { 0 };
	mf_fs_config_t cfg = { .algo = MF_FS_FAIR_TREE, .damp = 1 };
	int rc;

	rc = mf_iopt_parse(&io, argc, argv, &_cmd, &sel);
	if (!rc && mf_iopt_no_operand(argc, argv, &_cmd))
		rc = MF_EXIT_USAGE;
	if (!rc)
		rc = mf_iopt_finish(&io, &_cmd);
	if (!rc)
		rc = _fs_settle(&io, &s, &cfg);
	if (!rc)
		rc = _fs_run(&io, &s, &cfg, &sel);
	mf_settings_clear(&s);
	mf_iopt_clear(&io);
	g_strfreev(sel.accounts);
	g_strfreev(sel.users);
	return rc == MF_IOPT_HELP ? MF_EXIT_OK : rc;
}
