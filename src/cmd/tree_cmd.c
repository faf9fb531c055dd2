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
#include "exit_status.h"
#include "fairshare.h"
#include "fs_run.h"
#include "input_opts.h"
#include "level_fs.h"
#include "priority_conf.h"
#include "slurm_conf.h"
#include "snapshot_dir.h"
#include "tree_svg.h"
#include "tree_text.h"
#include "tree_view.h"

static const char _usage_head[] =
"Usage: mfprio tree --snapshot DIR | --assoc FILE [--usage FILE] [--conf FILE]\n"
"                   [--flags FLAGS] [--damp N] [--set KEY=VALUE]...\n"
"                   [--cluster NAME] [--svg FILE] [--color WHEN]\n"
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
"                     from their shares (|EffUsage - NormShares|, ties by\n"
"                     name); the others summed in one \"+K more\" (0: all)\n"
"  --users WHEN       fold: each account's users as one \"N users\" row or box\n"
"                     (their lowest and mean fair-share); show: each user\n"
"                     Without any of these four, a tree of more than 300\n"
"                     associations is drawn with --users fold and the largest\n"
"                     --top (5 at least) that keeps it to 45 rows; the SVG\n"
"                     is a list of rows when a level has over 12 items.\n";

enum { OPT_SVG = 256, OPT_COLOR, OPT_ACCOUNT, OPT_DEPTH, OPT_TOP, OPT_USERS,
       OPT_WIDTH };

static int _tree_own(void *arg0, int ch, const char *arg);

static const struct option _own_opts[] = {
	{ "svg", required_argument, NULL, OPT_SVG },
	{ "color", required_argument, NULL, OPT_COLOR },
	{ "account", required_argument, NULL, OPT_ACCOUNT },
	{ "depth", required_argument, NULL, OPT_DEPTH },
	{ "top", required_argument, NULL, OPT_TOP },
	{ "users", required_argument, NULL, OPT_USERS },
	{ "width", required_argument, NULL, OPT_WIDTH },
	{ NULL, 0, NULL, 0 },
};

/* The command: its --help, its input options (input_opts.def), its own. */
static const mf_iopt_cmd_t _cmd = {
	.name = "tree",
	.head = _usage_head,
	/* no --release: no figure of the tree differs between releases */
	.mask = MF_IOPT_FAIRSHARE_INPUTS & ~MF_IOPT_BIT(RELEASE),
	.own = _usage_own,
	.need = MF_IOPT_BIT(ASSOC),
	.longopts = _own_opts,
	.take = _tree_own,
};

#define AUTO_ROWS 300
#define AUTO_TOP 5              /* kept under each account, at least */
#define AUTO_LINES 45           /* rows of the view: a screenful */
#define AUTO_SVG_W 1400.0
#define AUTO_MIN_W 50.0         /* "grp012" fits */

/* What the command line of `mfprio tree` asks for. */
typedef struct {
	const char *svg, *when;
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
		mf_print_error("--%s '%s': a whole number, %s",
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

/* tree's own option CH with ARG into ARG0 (a _tree_opts_t).  Returns 0,
 * or -1 for a bad value (reported). */
static int _tree_own(void *arg0, int ch, const char *arg)
{
	_tree_opts_t *o = arg0;

	switch (ch) {
	case OPT_SVG: o->svg = arg; break;
	case OPT_COLOR: o->when = arg; break;
	case OPT_ACCOUNT:
		o->account = arg;
		o->view_set = true;
		break;
	case OPT_USERS:
		o->users = arg;
		o->view_set = true;
		break;
	default:
		return _tree_number(ch, arg, o);
	}
	return 0;
}

/* Read the options of ARGV into IO and O and check --color and --users.
 * Returns 0, MF_IOPT_HELP after --help or MF_EXIT_USAGE (reported). */
static int _tree_parse_args(int argc, char **argv, mf_iopts_t *io,
			    _tree_opts_t *o)
{
	const char *nc = getenv("NO_COLOR");
	int rc = mf_iopt_parse(io, argc, argv, &_cmd, o);

	if (rc)
		return rc;
	if (mf_iopt_no_operand(argc, argv, &_cmd))
		return MF_EXIT_USAGE;
	if (strcmp(o->when, "auto") && strcmp(o->when, "always") &&
	    strcmp(o->when, "never")) {
		mf_print_error("--color '%s': auto, always or never", o->when);
		return MF_EXIT_USAGE;
	}
	if (o->users && strcmp(o->users, "fold") && strcmp(o->users, "show")) {
		mf_print_error("--users '%s': fold or show", o->users);
		return MF_EXIT_USAGE;
	}
	o->view.fold_users = o->users && !strcmp(o->users, "fold");
	o->color = !(nc && *nc) && (!strcmp(o->when, "always") ||
				    (!strcmp(o->when, "auto") && isatty(1)));
	return 0;
}

/* The tree of IO's inputs, with its fair share computed by their
 * settings (settings.h), in *TREE.  Returns an exit status (errors
 * reported). */
static int _tree_load(mf_iopts_t *io, mf_fs_algo_t *algo, mf_tree_t **tree)
{
	mf_fs_config_t cfg;
	mf_settings_t s = { 0 };
	mf_error_t e;
	int rc;

	if ((rc = mf_iopt_finish(io, &_cmd)) ||
	    (rc = mf_iopt_settings(io, io->o.assoc, MF_SETTINGS_WARN_FS, &s)))
		goto out;
	mf_fs_run_config(&s, &cfg);
	if (!(*tree = mf_fs_run(io->o.assoc, io->o.usage, &s, &cfg, &e))) {
		mf_print_error("%s", e.text);
		rc = MF_EXIT_INPUT;
		goto out;
	}
	*algo = cfg.algo;
out:
	mf_settings_clear(&s);
	return rc;
}

/*
 * The --top of the automatic view V: the largest N, AUTO_TOP at least,
 * for which the view is AUTO_LINES rows or fewer (the same in text and
 * SVG): 5 on a deep tree, where every level multiplies the rows; many
 * more on a flat one, where a level of accounts is the whole view.
 * The rows only grow with N (a child kept more, a summary row less at
 * most), so the first N past the budget ends the search.  Returns it.
 */
static int _auto_top(mf_tview_t *v)
{
	guint widest;
	int n;

	v->n_top = 0;
	widest = mf_tview_widest(v->top, v);
	for (n = AUTO_TOP; (guint) n < widest; n++) {
		v->n_top = n + 1;
		if (mf_tview_rows(v->top, v, AUTO_LINES) > AUTO_LINES)
			break;
	}
	return n;
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
		mf_print_error("--account %s: no such account", o->account);
		return MF_EXIT_INPUT;
	}
	if (!o->view_set && tree->order->len > AUTO_ROWS) {
		view->fold_users = true;
		view->n_top = _auto_top(view);
		if (!view->width)
			view->width = AUTO_SVG_W;
		view->min_w = AUTO_MIN_W;
		*note = g_strdup_printf(
			"%u associations: users folded; under each account "
			"the %d children furthest from their shares "
			"(|EffUsage - NormShares|), the others summed "
			"(--users show --top 0: all; --account, --depth)",
			tree->order->len, view->n_top);
	}
	return MF_EXIT_OK;
}

int cmd_tree(int argc, char **argv)
{
	_tree_opts_t o = { .when = "auto" };
	mf_iopts_t io;
	mf_fs_algo_t algo = MF_FS_FAIR_TREE;
	mf_tree_t *tree = NULL;
	char *note = NULL;
	int rc;

	rc = _tree_parse_args(argc, argv, &io, &o);
	if (!rc)
		rc = _tree_load(&io, &algo, &tree);
	if (!rc)
		rc = _tree_view(&o, tree, &note);
	if (!rc && o.svg)
		rc = mf_tree_write_svg(o.svg, tree, algo, &o.view, note);
	else if (!rc)
		mf_tree_print_text(stdout, tree, algo, o.color, &o.view, note);
	g_free(note);
	if (tree)
		mf_tree_destroy(tree);
	mf_iopt_clear(&io);
	if (!rc && fflush(stdout))
		rc = MF_EXIT_INPUT;
	return rc == MF_IOPT_HELP ? MF_EXIT_OK : rc;
}
