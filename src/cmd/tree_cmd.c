/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mfprio tree: the association tree as a picture.
 *
 * In text, one line per association in sshare order, indented by depth,
 * with two bars: its part of its parent's shares (raw shares over the
 * level's shares) and its part of its parent's usage (raw usage over the
 * parent's), then the normalized shares, effective usage and fair-share
 * factor as sshare computes them.  Colour (usage bar green when at or
 * under its shares, red above) only when stdout is a terminal and NO_COLOR
 * is not set, or with --color=always (NO_COLOR still wins).
 *
 * With --svg FILE: a self-contained SVG (no script, no external
 * reference), an icicle: root across the top, each level a row below, each
 * association as wide as its part of its parent's shares (FairShare=parent
 * ones: the mean of their siblings'), filled by its fair-share factor (red
 * 0, yellow 0.5, green 1; grey when it has none, as Fair Tree's accounts),
 * with a legend and a tooltip per association.
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
#include "fairshare.h"
#include "priority_conf.h"
#include "priority_flags.h"
#include "slurm_conf.h"
#include "snapshot.h"
#include "snapshot_dir.h"

static const char _usage[] =
"Usage: mfprio tree --snapshot DIR | --assoc FILE [--usage FILE] [--conf FILE]\n"
"                   [--flags FLAGS] [--svg FILE] [--color WHEN]\n"
"\n"
"Draw the association tree: each account and user with its part of its\n"
"parent's shares against its part of its parent's usage, and its\n"
"fair-share factor.\n"
"\n"
"  --snapshot DIR the files of `mfprio snapshot DIR`; a file option given\n"
"                 overrides its file\n"
"  --assoc FILE   sacctmgr -P -n show assoc format=Account,User,ParentName,Fairshare\n"
"  --usage FILE   sshare -a -P -n -o Account,User,RawUsage, or scontrol show\n"
"                 assoc_mgr flags=assoc\n"
"  --conf FILE    slurm.conf: PriorityFlags, FairShareDampeningFactor\n"
"  --flags FLAGS  PriorityFlags to use instead of the file's (what-if)\n"
"  --svg FILE     write an SVG picture to FILE (- for stdout) instead\n"
"  --color WHEN   auto (default: when stdout is a terminal), always, never;\n"
"                 never when NO_COLOR is set\n"
"  -h, --help     this text\n";

enum { OPT_ASSOC = 256, OPT_USAGE, OPT_CONF, OPT_FLAGS, OPT_SVG, OPT_COLOR,
       OPT_SNAPSHOT };

#define BAR 20

/* A's part of its parent's shares, 0..1; NAN for FairShare=parent or
 * the root. */
static double _share_part(const mf_assoc_t *a)
{
	if (!a->parent || mf_assoc_is_parent_fs(a) || !a->level_shares)
		return NAN;
	return (double) a->shares_raw / a->level_shares;
}

/* A's part of its parent's usage, 0..1; NAN for the root or no usage. */
static double _usage_part(const mf_assoc_t *a)
{
	if (!a->parent || !(a->parent->usage_raw > 0))
		return NAN;
	return (double) (a->usage_raw / a->parent->usage_raw);
}

static void _bar(GString *g, double v, bool utf8, const char *on,
		 const char *off)
{
	int n = isnan(v) ? 0 : (int) lround(v * BAR);

	if (n > BAR)
		n = BAR;
	if (on)
		g_string_append(g, on);
	for (int i = 0; i < BAR; i++) {
		if (i == n && on)
			g_string_append(g, off);
		g_string_append(g, i < n ? (utf8 ? "\u2588" : "#") :
				(utf8 ? "\u00b7" : "."));
	}
	if (on && n == BAR)
		g_string_append(g, off);
	if (on)
		g_string_append(g, "\033[0m");
}

static void _pct(GString *g, double v)
{
	if (isnan(v))
		g_string_append_printf(g, " %6s", "-");
	else
		g_string_append_printf(g, " %5.1f%%", 100.0 * v);
}

static void _num(GString *g, double v)
{
	if (isnan(v))
		g_string_append_printf(g, " %9s", "-");
	else
		g_string_append_printf(g, " %9.6f", v);
}

static void _print_text(FILE *out, const mf_tree_t *t, mf_fs_algo_t algo,
			bool color)
{
	const char *charset;
	bool utf8;

	/* the character set only (numbers keep the C locale's point) */
	setlocale(LC_CTYPE, "");
	utf8 = g_get_charset(&charset);
	int w = 12;
	GString *g = g_string_new(NULL);

	for (guint i = 0; i < t->order->len; i++) {
		const mf_assoc_t *a = t->order->pdata[i];
		int n = 2 * a->depth + (int) strlen(a->user ? a->user : a->acct);

		/* a per-partition association: "user [partition]" */
		if (a->partition)
			n += 3 + (int) strlen(a->partition);

		if (n > w)
			w = n;
	}
	fprintf(out, "Fair-share algorithm: %s.  Bars: part of the parent's "
		"shares, part of the parent's usage.\n", mf_fs_algo_name(algo));
	fprintf(out, "%-*s %-*s %6s %-*s %6s %9s %9s %9s\n", w, "Account/User",
		BAR, "Shares", "", BAR, "Usage", "", "NormShare", "EffUsage",
		"FairShare");
	for (guint i = 0; i < t->order->len; i++) {
		const mf_assoc_t *a = t->order->pdata[i];
		double s = _share_part(a), u = _usage_part(a);
		const char *uc = NULL;
		char *name;

		if (color)
			uc = !isnan(s) && !isnan(u) && u > s ? "\033[31m" :
				"\033[32m";
		g_string_truncate(g, 0);
		name = a->partition ?
			g_strdup_printf("%*s%s [%s]", 2 * a->depth, "",
					a->user, a->partition) :
			g_strdup_printf("%*s%s", 2 * a->depth, "",
					a->user ? a->user : a->acct);
		g_string_append_printf(g, "%-*s ", w, name);
		g_free(name);
		_bar(g, s, utf8, color ? "\033[36m" : NULL, "\033[2m");
		if (mf_assoc_is_parent_fs(a))
			g_string_append_printf(g, " %6s", "parent");
		else
			_pct(g, s);
		g_string_append_c(g, ' ');
		_bar(g, u, utf8, uc, "\033[2m");
		_pct(g, u);
		_num(g, a->shares_norm);
		_num(g, (double) a->usage_efctv);
		_num(g, a->fs_factor);
		fprintf(out, "%s\n", g->str);
	}
	g_string_free(g, TRUE);
}

/* The colour of fair-share factor F: red 0, yellow 0.5, green 1. */
static void _fs_color(double f, char buf[8])
{
	int r, gr;

	if (isnan(f)) {
		snprintf(buf, 8, "#bbbbbb");
		return;
	}
	f = f < 0 ? 0 : f > 1 ? 1 : f;
	r = f <= 0.5 ? 215 : (int) lround(215 * (1 - f) * 2);
	gr = f >= 0.5 ? 175 : (int) lround(175 * f * 2);
	snprintf(buf, 8, "#%02x%02x30", r, gr);
}

static void _xml(FILE *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '&': fputs("&amp;", out); break;
		case '"': fputs("&quot;", out); break;
		default:
			/* control characters are not allowed in XML 1.0 */
			fputc((unsigned char) *s < 0x20 ? '?' : *s, out);
		}
	}
}

#define SVG_W 1000.0
#define ROW_H 30.0
#define TOP 40.0

/* The weight of A among its siblings (for the widths). */
static double _weight(const mf_assoc_t *a)
{
	const GPtrArray *sib = a->parent->children;
	double sum = 0;
	guint n = 0;

	if (!mf_assoc_is_parent_fs(a))
		return a->shares_raw;
	for (guint i = 0; i < sib->len; i++) {
		const mf_assoc_t *s = sib->pdata[i];

		if (!mf_assoc_is_parent_fs(s)) {
			sum += s->shares_raw;
			n++;
		}
	}
	return n ? sum / n : 1.0;
}

static void _svg_node(FILE *out, const mf_assoc_t *a, double x, double w)
{
	char col[8];
	double sum = 0, cx = x;
	const char *name = a->user ? a->user : a->acct;
	double y = TOP + ROW_H * a->depth;

	_fs_color(a->fs_factor, col);
	fprintf(out, "<g><title>");
	if (a->user) {
		_xml(out, a->user);
		fputs(" in ", out);
	}
	_xml(out, a->acct);
	if (a->partition) {
		fputs(" on partition ", out);
		_xml(out, a->partition);
	}
	if (mf_assoc_is_parent_fs(a))
		fprintf(out, ": shares parent");
	else
		fprintf(out, ": shares %u", a->shares_raw);
	fprintf(out, ", norm shares %.6f, effective usage %.6f, raw usage "
		"%.0Lf, fair-share ", a->shares_norm, (double) a->usage_efctv,
		a->usage_raw);
	if (isnan(a->fs_factor))
		fputs("none", out);
	else
		fprintf(out, "%.6f", a->fs_factor);
	fprintf(out, "</title><rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
		"height=\"%.2f\" fill=\"%s\" stroke=\"#ffffff\"/>",
		x, y, w > 1 ? w : 1, ROW_H - 2, col);
	if (w >= 7.0 * (double) strlen(name) + 6) {
		fprintf(out, "<text x=\"%.2f\" y=\"%.2f\">", x + w / 2,
			y + ROW_H / 2 + 3);
		_xml(out, name);
		fputs("</text>", out);
	}
	fputs("</g>\n", out);
	if (!a->children)
		return;
	for (guint i = 0; i < a->children->len; i++)
		sum += _weight(a->children->pdata[i]);
	for (guint i = 0; i < a->children->len; i++) {
		const mf_assoc_t *c = a->children->pdata[i];
		double cw = sum > 0 ? w * _weight(c) / sum : 0;

		_svg_node(out, c, cx, cw);
		cx += cw;
	}
}

static int _write_svg(const char *path, const mf_tree_t *t,
		      mf_fs_algo_t algo)
{
	FILE *out = strcmp(path, "-") ? fopen(path, "w") : stdout;
	int depth = 0;
	double h, ly;

	if (!out) {
		mf_cmd_error("--svg %s: cannot write it", path);
		return MF_EXIT_INPUT;
	}
	for (guint i = 0; i < t->order->len; i++) {
		const mf_assoc_t *a = t->order->pdata[i];

		if (a->depth > depth)
			depth = a->depth;
	}
	ly = TOP + ROW_H * (depth + 1) + 20;
	h = ly + 50;
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
		"height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
		"font-family=\"sans-serif\" font-size=\"12\">\n"
		"<defs><linearGradient id=\"fs\">"
		"<stop offset=\"0\" stop-color=\"#d70030\"/>"
		"<stop offset=\"0.5\" stop-color=\"#d7af30\"/>"
		"<stop offset=\"1\" stop-color=\"#00af30\"/>"
		"</linearGradient></defs>\n"
		"<style>text { text-anchor: middle; }</style>\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n"
		"<text x=\"%.0f\" y=\"22\" font-size=\"15\">Associations: "
		"width = part of the parent's shares, colour = fair-share "
		"factor (%s)</text>\n", SVG_W + 20, h, SVG_W + 20, h,
		(SVG_W + 20) / 2, mf_fs_algo_name(algo));
	_svg_node(out, t->root, 10, SVG_W);
	fprintf(out, "<g><text x=\"60\" y=\"%.0f\">fair-share</text>"
		"<rect x=\"120\" y=\"%.0f\" width=\"200\" height=\"14\" "
		"fill=\"url(#fs)\"/>"
		"<text x=\"120\" y=\"%.0f\">0</text>"
		"<text x=\"220\" y=\"%.0f\">0.5</text>"
		"<text x=\"320\" y=\"%.0f\">1</text>"
		"<rect x=\"360\" y=\"%.0f\" width=\"14\" height=\"14\" "
		"fill=\"#bbbbbb\"/>"
		"<text x=\"440\" y=\"%.0f\">no factor</text></g>\n</svg>\n",
		ly + 11, ly, ly + 28, ly + 28, ly + 28, ly, ly + 11);
	if (out != stdout ? fclose(out) : fflush(out)) {
		mf_cmd_error("--svg %s: write failed", path);
		return MF_EXIT_INPUT;
	}
	return MF_EXIT_OK;
}

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

int cmd_tree(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "assoc", required_argument, NULL, OPT_ASSOC },
		{ "usage", required_argument, NULL, OPT_USAGE },
		{ "conf", required_argument, NULL, OPT_CONF },
		{ "flags", required_argument, NULL, OPT_FLAGS },
		{ "svg", required_argument, NULL, OPT_SVG },
		{ "color", required_argument, NULL, OPT_COLOR },
		{ "snapshot", required_argument, NULL, OPT_SNAPSHOT },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *assoc = NULL, *usage = NULL, *conf = NULL, *svg = NULL;
	const char *flags_arg = NULL, *snapshot = NULL, *when = "auto";
	const char *nc = getenv("NO_COLOR");
	mf_snapdir_t snap = { 0 };
	mf_fs_config_t cfg = { .algo = MF_FS_FAIR_TREE, .damp = 1 };
	uint32_t flags = 0;
	mf_tree_t *tree;
	mf_error_t e;
	bool color;
	int ch, rc = MF_EXIT_OK;

	optind = 1;
	while (!rc && (ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (ch) {
		case OPT_ASSOC: assoc = optarg; break;
		case OPT_USAGE: usage = optarg; break;
		case OPT_CONF: conf = optarg; break;
		case OPT_FLAGS: flags_arg = optarg; break;
		case OPT_SVG: svg = optarg; break;
		case OPT_SNAPSHOT: snapshot = optarg; break;
		case OPT_COLOR: when = optarg; break;
		case 'h':
			fputs(_usage, stdout);
			return MF_EXIT_OK;
		default:
			fputs(_usage, stderr);
			rc = MF_EXIT_USAGE;
		}
	}
	if (rc)
		return rc;
	if (optind < argc) {
		mf_cmd_error("tree: unexpected argument '%s'", argv[optind]);
		return MF_EXIT_USAGE;
	}
	if (strcmp(when, "auto") && strcmp(when, "always") &&
	    strcmp(when, "never")) {
		mf_cmd_error("--color '%s': auto, always or never", when);
		return MF_EXIT_USAGE;
	}
	color = !(nc && *nc) && (!strcmp(when, "always") ||
				 (!strcmp(when, "auto") && isatty(1)));
	if (snapshot) {
		if (mf_snapdir_open(snapshot, &snap, &e)) {
			mf_cmd_error("%s", e.text);
			return MF_EXIT_INPUT;
		}
		assoc = assoc ? assoc : snap.assoc;
		usage = usage ? usage : snap.assoc_mgr ? snap.assoc_mgr :
			snap.usage;
		conf = conf ? conf : snap.conf;
	}
	if (!assoc) {
		mf_cmd_error("tree: --assoc FILE is required%s", snapshot ?
			     " (the snapshot has no assoc file)" :
			     " (or --snapshot DIR)");
		mf_snapdir_clear(&snap);
		return MF_EXIT_USAGE;
	}
	if (conf && _read_conf(conf, &flags, &cfg.damp)) {
		mf_snapdir_clear(&snap);
		return MF_EXIT_INPUT;
	}
	if (flags_arg && mf_priority_flags_parse(flags_arg, &flags, &e)) {
		mf_cmd_error("--flags: %s", e.text);
		mf_snapdir_clear(&snap);
		return MF_EXIT_USAGE;
	}
	cfg.algo = mf_priority_flags_algo(flags);
	if (!(tree = mf_snapshot_load(assoc, usage, &e))) {
		mf_cmd_error("%s", e.text);
		mf_snapdir_clear(&snap);
		return MF_EXIT_INPUT;
	}
	mf_fairshare_compute(tree, &cfg);
	if (svg)
		rc = _write_svg(svg, tree, cfg.algo);
	else
		_print_text(stdout, tree, cfg.algo, color);
	mf_tree_destroy(tree);
	mf_snapdir_clear(&snap);
	if (!rc && fflush(stdout))
		rc = MF_EXIT_INPUT;
	return rc;
}
