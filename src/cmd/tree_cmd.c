/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mfprio tree: the association tree as a picture.
 *
 * In text, one line per association in sshare order, indented by depth,
 * with two bars: its part of its parent's shares (raw shares over the
 * level's shares) and its part of its parent's usage (raw usage over the
 * parent's), then the normalized shares, effective usage, fair-share
 * factor and level fair-share as sshare computes them.  Colour (usage bar
 * green when at or under its shares, red above) only when stdout is a
 * terminal and NO_COLOR is not set, or with --color=always (NO_COLOR still
 * wins).
 *
 * With --svg FILE: a self-contained SVG (no script, no external
 * reference), an icicle: root across the top, each level a row below, each
 * association as wide as its part of its parent's shares (FairShare=parent
 * ones: the mean of their siblings'), a user filled by its fair-share
 * factor (red 0, yellow 0.5, green 1), an account by its fair-share factor
 * or, under Fair Tree (where accounts have none), by its level fair-share
 * on a log scale (red 1/4 and under: used four times its share or more,
 * yellow 1, green 4 and over), with a legend and a tooltip per box.
 *
 * A site's size (thousands of users) is read through a view, the same in
 * text and SVG: --account NAME draws one subtree; --depth N stops N levels
 * under it, a row or box summing what is deeper; --users fold puts an
 * account's users into one row or box ("N users", their shares and usage
 * added up, the lowest and mean fair-share); --top N keeps, under each
 * account, the N children whose part of the usage is furthest from their
 * part of the shares (the ones fair-share acts on), the others summed in
 * one "+K more" row or box.  Trees of more than AUTO_ROWS associations get
 * --users fold and --top 5 unless a view option is given (a note says
 * so); their SVG is at least 1400 pixels wide, wider when needed for no
 * box to be narrower than AUTO_MIN_W pixels (the others' widths stay by
 * shares among them), names cut with an ellipsis where they do not fit.
 */
#include <getopt.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>

#include "cmd.h"
#include "cmd_error.h"
#include "fairshare.h"
#include "input_opts.h"
#include "level_fs.h"
#include "priority_conf.h"
#include "priority_flags.h"
#include "slurm_conf.h"
#include "snapshot.h"
#include "snapshot_dir.h"
#include "tree_svg.h"
#include "tree_text.h"
#include "tree_view.h"

static const char _usage_head[] =
"Usage: mfprio tree --snapshot DIR | --assoc FILE [--usage FILE] [--conf FILE]\n"
"                   [--flags FLAGS] [--svg FILE] [--color WHEN]\n"
"                   [--account NAME] [--depth N] [--top N] [--users fold|show]\n"
"\n"
"Draw the association tree: each account and user with its part of its\n"
"parent's shares against its part of its parent's usage, and its\n"
"fair-share factor.\n"
"\n";

static const char _usage_own[] =
"  --svg FILE         write an SVG picture to FILE (- for stdout) instead\n"
"  --width PX         the SVG's tree width (default 1000, 1400 for a large tree)\n"
"  --color WHEN       auto (default: when stdout is a terminal), always, never;\n"
"                     never when NO_COLOR is set\n"
"  --account NAME only that account and what is under it\n"
"  --depth N          N levels under the top one; deeper associations summed\n"
"  --top N            under each account the N children whose usage is furthest\n"
"                     from their shares; the others summed in one \"+K more\"\n"
"                     (0: all)\n"
"  --users WHEN       fold: each account's users as one \"N users\" row or box\n"
"                     (their lowest and mean fair-share); show: each user\n"
"                     Without any of these four, a tree of more than 300\n"
"                     associations is drawn with --users fold and --top 5\n"
"                     (the SVG then at least 1400 pixels wide, no box under\n"
"                     50).\n";

#define _MASK (MF_IOPT_BIT(SNAPSHOT) | MF_IOPT_BIT(CONF) | MF_IOPT_BIT(ASSOC) | \
	       MF_IOPT_BIT(USAGE) | MF_IOPT_BIT(FLAGS))

/* --help: the command, its input options (input_opts.def), its own. */
static const mf_iopt_help_t _help = {
	_usage_head, _MASK, _usage_own, NULL
};

enum { OPT_SVG = 256, OPT_COLOR, OPT_ACCOUNT, OPT_DEPTH, OPT_TOP, OPT_USERS,
       OPT_WIDTH };

#define AUTO_ROWS 300
#define AUTO_TOP_TEXT 5         /* a screenful */
#define AUTO_TOP_SVG 5
#define AUTO_SVG_W 1400.0
#define AUTO_MIN_W 50.0         /* "grp012" fits */

/* PriorityFlags and FairShareDampeningFactor of the conf at PATH. */
static int _read_conf(const char *path, uint32_t *flags, uint16_t *damp)
{
	mf_error_t e;
	mf_conf_t *conf = mf_conf_load(path, &e);
	mf_prio_conf_t *pc;

	if (!conf) {
		mf_cmd_error("%s", e.text);
		return -1;
	}
	pc = mf_prio_conf_read(conf, &e);
	mf_conf_free(conf);
	if (!pc) {
		mf_cmd_error("%s", e.text);
		return -1;
	}
	*flags = pc->flags;
	*damp = pc->fs_damp;
	mf_prio_conf_free(pc);
	return 0;
}

/* What the command line of `mfprio tree` asks for. */
typedef struct {
	const char *assoc, *usage, *conf, *svg;
	const char *flags_arg, *snapshot, *when;
	const char *account, *users;
	mf_tview_t view;
	bool view_set;           /* --account, --users, --depth or --top */
	bool color;
} _tree_opts_t;

/* --depth, --top or --width (CH) with ARG into O's view.  Returns 0, or -1
 * for a bad number (reported). */
static int _tree_number(int ch, const char *arg, _tree_opts_t *o)
{
	char *end;
	long n = strtol(arg, &end, 10);

	if (!*arg || *end || n < 0 || n > 100000 ||
	    (ch == OPT_WIDTH && n < 200)) {
		mf_cmd_error("--%s '%s': a whole number, %s",
			     ch == OPT_DEPTH ? "depth" :
			     ch == OPT_TOP ? "top" : "width",
			     arg, ch == OPT_WIDTH ?
			     "200 to 100000" : "0 or more");
		return -1;
	}
	if (ch == OPT_WIDTH) {
		o->view.width = (double) n;
		return 0;
	}
	if (ch == OPT_DEPTH)
		o->view.depth = (int) n;
	else
		o->view.n_top = (int) n;
	o->view_set = true;
	return 0;
}

/* Read the options of ARGV into O and check --color and --users.
 * Returns 0, 1 after --help or -1 for a usage error (reported). */
static int _tree_parse_args(int argc, char **argv, _tree_opts_t *o)
{
	static const struct option own[] = {
		{ "svg", required_argument, NULL, OPT_SVG },
		{ "color", required_argument, NULL, OPT_COLOR },
		{ "account", required_argument, NULL, OPT_ACCOUNT },
		{ "depth", required_argument, NULL, OPT_DEPTH },
		{ "top", required_argument, NULL, OPT_TOP },
		{ "users", required_argument, NULL, OPT_USERS },
		{ "width", required_argument, NULL, OPT_WIDTH },
		{ NULL, 0, NULL, 0 },
	};
	const struct option *opts = mf_iopt_longopts(_help.mask, own);
	const char *nc = getenv("NO_COLOR");
	int ch;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (ch) {
		case MF_IOPT_ASSOC: o->assoc = optarg; break;
		case MF_IOPT_USAGE: o->usage = optarg; break;
		case MF_IOPT_CONF: o->conf = optarg; break;
		case MF_IOPT_FLAGS: o->flags_arg = optarg; break;
		case OPT_SVG: o->svg = optarg; break;
		case MF_IOPT_SNAPSHOT: o->snapshot = optarg; break;
		case OPT_COLOR: o->when = optarg; break;
		case OPT_ACCOUNT:
			o->account = optarg;
			o->view_set = true;
			break;
		case OPT_USERS:
			o->users = optarg;
			o->view_set = true;
			break;
		case OPT_WIDTH:
		case OPT_DEPTH:
		case OPT_TOP:
			if (_tree_number(ch, optarg, o))
				return -1;
			break;
		default: return mf_iopt_other(ch, &_help);
		}
	}
	if (mf_iopt_no_operand(argc, argv, "tree"))
		return -1;
	if (strcmp(o->when, "auto") && strcmp(o->when, "always") &&
	    strcmp(o->when, "never")) {
		mf_cmd_error("--color '%s': auto, always or never", o->when);
		return -1;
	}
	if (o->users && strcmp(o->users, "fold") && strcmp(o->users, "show")) {
		mf_cmd_error("--users '%s': fold or show", o->users);
		return -1;
	}
	o->view.fold_users = o->users && !strcmp(o->users, "fold");
	o->color = !(nc && *nc) && (!strcmp(o->when, "always") ||
				    (!strcmp(o->when, "auto") && isatty(1)));
	return 0;
}

/* The tree O names (from the snapshot SNAP where options name no file),
 * with its fair share computed, in *TREE.  Returns an exit status
 * (errors reported). */
static int _tree_load(_tree_opts_t *o, mf_snapdir_t *snap, mf_fs_algo_t *algo,
		      mf_tree_t **tree)
{
	mf_fs_config_t cfg = { .algo = MF_FS_FAIR_TREE, .damp = 1 };
	uint32_t flags = 0;
	mf_error_t e;

	if (o->snapshot) {
		if (mf_snapdir_open(o->snapshot, snap, &e)) {
			mf_cmd_error("%s", e.text);
			return MF_EXIT_INPUT;
		}
		o->assoc = o->assoc ? o->assoc : snap->assoc;
		o->usage = o->usage ? o->usage : snap->assoc_mgr ?
			   snap->assoc_mgr : snap->usage;
		o->conf = o->conf ? o->conf : snap->conf;
	}
	if (!o->assoc) {
		mf_cmd_error("tree: --assoc FILE is required%s", o->snapshot ?
			     " (the snapshot has no assoc file)" :
			     " (or --snapshot DIR)");
		return MF_EXIT_USAGE;
	}
	if (o->conf && _read_conf(o->conf, &flags, &cfg.damp))
		return MF_EXIT_INPUT;
	if (o->flags_arg && mf_priority_flags_parse(o->flags_arg, &flags, &e)) {
		mf_cmd_error("--flags: %s", e.text);
		return MF_EXIT_USAGE;
	}
	cfg.algo = mf_priority_flags_algo(flags);
	if (!(*tree = mf_snapshot_load(o->assoc, o->usage, &e))) {
		mf_cmd_error("%s", e.text);
		return MF_EXIT_INPUT;
	}
	mf_fairshare_compute(*tree, &cfg);
	*algo = cfg.algo;
	return MF_EXIT_OK;
}

/* O's view of TREE: its --account, or a summary of a big tree when no
 * option chose the view (what was summed up said in *NOTE).  Returns an
 * exit status. */
static int _tree_view(_tree_opts_t *o, const mf_tree_t *tree, char **note)
{
	mf_tview_t *view = &o->view;

	view->top = tree->root;
	if (o->account &&
	    !(view->top = mf_tree_find_account(tree, o->account))) {
		mf_cmd_error("--account %s: no such account", o->account);
		return MF_EXIT_INPUT;
	}
	if (!o->view_set && tree->order->len > AUTO_ROWS) {
		view->fold_users = true;
		view->n_top = o->svg ? AUTO_TOP_SVG : AUTO_TOP_TEXT;
		if (!view->width)
			view->width = AUTO_SVG_W;
		view->min_w = AUTO_MIN_W;
		*note = g_strdup_printf(
			"%u associations: each account's users folded, the %d "
			"children furthest from their shares shown (--users "
			"show --top 0 for all; --account, --depth)",
			tree->order->len, view->n_top);
	}
	return MF_EXIT_OK;
}

int cmd_tree(int argc, char **argv)
{
	_tree_opts_t o = { .when = "auto" };
	mf_snapdir_t snap = { 0 };
	mf_fs_algo_t algo = MF_FS_FAIR_TREE;
	mf_tree_t *tree = NULL;
	char *note = NULL;
	int rc;

	rc = _tree_parse_args(argc, argv, &o);
	if (rc)
		return rc > 0 ? MF_EXIT_OK : MF_EXIT_USAGE;
	rc = _tree_load(&o, &snap, &algo, &tree);
	if (!rc)
		rc = _tree_view(&o, tree, &note);
	if (!rc && o.svg)
		rc = mf_tree_write_svg(o.svg, tree, algo, &o.view, note);
	else if (!rc)
		mf_tree_print_text(stdout, tree, algo, o.color, &o.view, note);
	g_free(note);
	if (tree)
		mf_tree_destroy(tree);
	mf_snapdir_clear(&snap);
	if (!rc && fflush(stdout))
		rc = MF_EXIT_INPUT;
	return rc;
}
