/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cmd_error.h"
#include "slurm_release.h"
#include "fairshare.h"
#include "fairshare_json.h"
#include "input_opts.h"
#include "priority_flags.h"
#include "release_table.h"
#include "slurm_conf.h"
#include "snapshot.h"
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
"  --damp N           FairShareDampeningFactor to use instead of the\n"
"                     file's (Fair Tree has no dampening: a warning says so)\n"
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

#define _MASK (MF_IOPT_BIT(SNAPSHOT) | MF_IOPT_BIT(CONF) | MF_IOPT_BIT(ASSOC) | \
	       MF_IOPT_BIT(USAGE) | MF_IOPT_BIT(RELEASE) | MF_IOPT_BIT(SET) | \
	       MF_IOPT_BIT(FLAGS) | MF_IOPT_BIT(CLUSTER))

/* --help: the command, its input options (input_opts.def), its own. */
static const mf_iopt_help_t _help = {
	_usage_head, _MASK, _usage_own, NULL
};

enum { OPT_DAMP = 256, OPT_JSON };

/* The row selection of sshare's -A and -u, and its -m column. */
typedef struct {
	char **accounts;         /* NULL: every account */
	char **users;            /* NULL: every user */
	bool partition;          /* -m */
	const char *format;      /* -o LIST, or NULL */
} _select_t;

static int _parse_damp(const char *s, uint16_t *out);
static int _read_conf(const char *path, GPtrArray *sets, uint32_t *flags,
		      uint16_t *damp, char **cluster, mf_cmd_release_t *rel);
static bool _in_list(char **list, const char *name);
static bool _keep_row(const mf_assoc_t *a, const void *sel_arg);
static const char *_tres_cell(const mf_assoc_t *a, mf_sshare_col_t col,
			      const void *tres_arg);

/* A FairShareDampeningFactor: a whole number from 1 to 65535. */
static int _parse_damp(const char *s, uint16_t *out)
{
	char *end;
	long v;

	if (!s || !*s || !g_ascii_isdigit(*s))
		return -1;
	v = strtol(s, &end, 10);
	if (*end || v < 1 || v > 65535)
		return -1;
	*out = (uint16_t) v;
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

/* Settings from slurm.conf (PATH, may be NULL) and the --set pairs SETS;
 * a bad value is reported and the default kept, as slurmctld would run.
 * Returns -1 if the file cannot be read, -2 for a --set refused. */
static int _read_conf(const char *path, GPtrArray *sets, uint32_t *flags,
		      uint16_t *damp, char **cluster, mf_cmd_release_t *rel)
{
	mf_error_t e;
	mf_conf_t *conf = path ? mf_conf_load(path, &e) :
			  mf_conf_parse("", "--set", &e);
	const mf_conf_pair_t *p;

	if (!conf) {
		mf_cmd_error("%s", e.text);
		return -1;
	}
	for (guint i = 0; i < sets->len; i++)
		if (mf_conf_set_arg(conf, sets->pdata[i], "--set", 1, &e)) {
			mf_cmd_error("%s", e.text);
			mf_conf_free(conf);
			return -2;
		}
	for (guint i = 0; i < conf->warnings->len; i++)
		fprintf(stderr, "mfprio: warning: %s\n",
			(const char *) conf->warnings->pdata[i]);
	if ((p = mf_conf_get(conf, "PriorityFlags")) &&
	    mf_priority_flags_parse(p->value, flags, &e))
		fprintf(stderr, "mfprio: warning: %s:%d: %s: ignored, as "
			"slurmctld ignores it\n", p->file, p->line, e.text);
	if ((p = mf_conf_get(conf, "FairShareDampeningFactor")) &&
	    _parse_damp(p->value, damp))
		fprintf(stderr, "mfprio: warning: %s:%d: "
			"FairShareDampeningFactor '%s' is not a whole number "
			"from 1 to 65535: using 1\n", p->file, p->line,
			p->value);
	if (!*cluster && (p = mf_conf_get(conf, "ClusterName")))
		*cluster = g_strdup(p->value);
	if (path)
		mf_cmd_release_detect(rel, conf, path);
	mf_conf_free(conf);
	return 0;
}

/* What the command line of `mfprio fairshare` asks for. */
typedef struct {
	const char *assoc, *usage, *conf;
	const char *flags_arg, *damp_arg, *snapshot;
	mf_snapdir_t snap;
	bool noheader, json;
	uint32_t flags;
	mf_cmd_release_t rel;
	mf_fs_config_t cfg;
	GPtrArray *sets;
	_select_t sel;
	char *cluster;
} _fs_opts_t;

/* Read the options of ARGV into O.  Returns 0, 1 after --help or -1 for a
 * usage error (reported). */
static int _fs_parse_args(int argc, char **argv, _fs_opts_t *o)
{
	static const struct option own[] = {
		{ "damp", required_argument, NULL, OPT_DAMP },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "accounts", required_argument, NULL, 'A' },
		{ "users", required_argument, NULL, 'u' },
		{ "partition", no_argument, NULL, 'm' },
		{ "all", no_argument, NULL, 'a' },
		{ "format", required_argument, NULL, 'o' },
		MF_IOPT_TABLE_OPTS,
		{ NULL, 0, NULL, 0 },
	};
	const struct option *opts = mf_iopt_longopts(_help.mask, own);
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "A:u:o:malPnh", opts, NULL)) != -1) {
		switch (c) {
		case MF_IOPT_SET: g_ptr_array_add(o->sets, optarg); break;
		case MF_IOPT_CLUSTER:
			g_free(o->cluster);
			o->cluster = g_strdup(optarg);
			break;
		case 'A':
			g_strfreev(o->sel.accounts);
			o->sel.accounts = g_strsplit(optarg, ",", -1);
			break;
		case 'u':
			g_strfreev(o->sel.users);
			o->sel.users = g_strsplit(optarg, ",", -1);
			break;
		case 'm': o->sel.partition = true; break;
		case 'o': o->sel.format = optarg; break;
		case 'a': case 'l': case 'P': break;
		case MF_IOPT_ASSOC: o->assoc = optarg; break;
		case MF_IOPT_USAGE: o->usage = optarg; break;
		case MF_IOPT_CONF: o->conf = optarg; break;
		case MF_IOPT_FLAGS: o->flags_arg = optarg; break;
		case OPT_DAMP: o->damp_arg = optarg; break;
		case MF_IOPT_SNAPSHOT: o->snapshot = optarg; break;
		case MF_IOPT_RELEASE:
			if (mf_cmd_release_option(&o->rel, optarg))
				return -1;
			break;
		case OPT_JSON: o->json = true; break;
		case 'n': o->noheader = true; break;
		default: return mf_iopt_other(c, &_help);
		}
	}
	return mf_iopt_no_operand(argc, argv, "fairshare");
}

/* The input files of O: the snapshot's where options name none, and the
 * settings of slurm.conf, --set, --flags and --damp.  Returns an exit
 * status (errors reported). */
static int _fs_settle(_fs_opts_t *o)
{
	mf_error_t e;
	int rc;

	if (o->snapshot) {
		if (mf_snapdir_open(o->snapshot, &o->snap, &e)) {
			mf_cmd_error("%s", e.text);
			return MF_EXIT_INPUT;
		}
		o->assoc = o->assoc ? o->assoc : o->snap.assoc;
		o->usage = o->usage ? o->usage : o->snap.assoc_mgr ?
			   o->snap.assoc_mgr : o->snap.usage;
		o->conf = o->conf ? o->conf : o->snap.conf;
	}
	if (!o->assoc) {
		mf_cmd_error("fairshare: --assoc FILE is required%s",
			     o->snapshot ? " (the snapshot has no assoc file)" :
			     "");
		mf_iopt_usage(stderr, &_help);
		return MF_EXIT_USAGE;
	}
	if ((o->conf || o->sets->len) &&
	    (rc = _read_conf(o->conf, o->sets, &o->flags, &o->cfg.damp,
			     &o->cluster, &o->rel)))
		return rc == -2 ? MF_EXIT_USAGE : MF_EXIT_INPUT;
	if (o->flags_arg &&
	    mf_priority_flags_parse(o->flags_arg, &o->flags, &e)) {
		mf_cmd_error("--flags: %s", e.text);
		return MF_EXIT_USAGE;
	}
	if (o->damp_arg && _parse_damp(o->damp_arg, &o->cfg.damp)) {
		mf_cmd_error("--damp '%s': not a whole number from 1 to "
			     "65535", o->damp_arg);
		return MF_EXIT_USAGE;
	}
	o->cfg.algo = mf_priority_flags_algo(o->flags);
	if (o->cfg.algo == MF_FS_FAIR_TREE && o->cfg.damp != 1)
		fprintf(stderr, "mfprio: warning: FairShareDampeningFactor %u "
			"has no effect: Fair Tree has no dampening (set "
			"PriorityFlags=NO_FAIR_TREE for the classic "
			"algorithm)\n", (unsigned) o->cfg.damp);
	/* without --conf, the snapshot's directory may say the release; no
	 * fair-share figure differs between the releases mfprio knows, so
	 * it is only checked (and warned about) here */
	mf_cmd_release_detect(&o->rel, NULL, o->assoc);
	return MF_EXIT_OK;
}

/* Load the tree O names, compute its fair share and print it as sshare
 * or as JSON.  Returns an exit status. */
static int _fs_run(const _fs_opts_t *o)
{
	mf_error_t e;
	mf_tree_t *tree;
	mf_sshare_tres_t *tres = NULL;
	mf_sshare_cols_t cols;

	if (o->sel.format && mf_sshare_cols_parse(&cols, o->sel.format, &e)) {
		mf_cmd_error("fairshare: %s", e.text);
		return MF_EXIT_USAGE;
	}
	tree = mf_snapshot_load_cluster(o->assoc, o->usage, o->cluster, &e);
	if (!tree) {
		mf_cmd_error("%s", e.text);
		return MF_EXIT_INPUT;
	}
	mf_fairshare_compute(tree, &o->cfg);
	if (o->json) {
		char name[8];
		mf_fs_json_settings_t s = {
			.snapshot = o->snapshot, .assoc = o->assoc,
			.usage = o->usage, .conf = o->conf,
			.flags = o->flags, .fs = o->cfg,
			.release = mf_release_name(o->rel.release, name),
			.release_num = o->rel.release,
			.release_source = o->rel.source,
		};

		mf_fairshare_json(stdout, tree, &s);
	} else {
		mf_sshare_opts_t p = {
			.noheader = o->noheader,
			.cols = o->sel.format ? &cols : NULL,
			.partition = o->sel.partition,
			.release = o->rel.release,
			.keep = o->sel.accounts || o->sel.users ? _keep_row :
				NULL,
			.keep_arg = &o->sel,
			.tres = _tres_cell,
		};

		/* the usage file was read whole above: it loads again */
		if (o->usage && mf_usage_is_amgr(o->usage) &&
		    !(tres = mf_sshare_tres_load(o->usage, &e))) {
			mf_cmd_error("%s", e.text);
			mf_tree_destroy(tree);
			return MF_EXIT_INPUT;
		}
		p.tres_arg = tres;
		mf_sshare_print(stdout, tree, o->cfg.algo, &p);
		mf_sshare_tres_free(tres);
	}
	mf_tree_destroy(tree);
	return fflush(stdout) ? MF_EXIT_INPUT : MF_EXIT_OK;
}

int cmd_fairshare(int argc, char **argv)
{
	_fs_opts_t o = {
		.cfg = { .algo = MF_FS_FAIR_TREE, .damp = 1 },
		.sets = g_ptr_array_new(),
	};
	int rc;

	rc = _fs_parse_args(argc, argv, &o);
	if (rc)
		rc = rc > 0 ? MF_EXIT_OK : MF_EXIT_USAGE;
	else if (!(rc = _fs_settle(&o)))
		rc = _fs_run(&o);
	mf_cmd_release_clear(&o.rel);
	mf_snapdir_clear(&o.snap);
	g_free(o.cluster);
	g_ptr_array_free(o.sets, TRUE);
	g_strfreev(o.sel.accounts);
	g_strfreev(o.sel.users);
	return rc;
}
