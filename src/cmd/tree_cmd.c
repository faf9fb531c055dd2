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
"                     50).\n"
"  -h, --help         this text\n";

#define _MASK (MF_IOPT_BIT(SNAPSHOT) | MF_IOPT_BIT(CONF) | MF_IOPT_BIT(ASSOC) | \
	       MF_IOPT_BIT(USAGE) | MF_IOPT_BIT(FLAGS))

/* --help: the command, its input options (input_opts.def), its own. */
static void _usage(FILE *out)
{
	mf_iopt_usage(out, _usage_head, _MASK, _usage_own);
}

enum { OPT_SVG = 256, OPT_COLOR, OPT_ACCOUNT, OPT_DEPTH, OPT_TOP, OPT_USERS,
       OPT_WIDTH };

#define AUTO_ROWS 300
#define AUTO_TOP_TEXT 5         /* a screenful */
#define AUTO_TOP_SVG 5
#define AUTO_SVG_W 1400.0
#define AUTO_MIN_W 50.0         /* "grp012" fits */

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

/* --- the view: what is drawn of a large tree --- */

typedef struct {
	const mf_assoc_t *top;   /* the view's top association */
	int depth;               /* levels drawn under top (0: all) */
	int n_top;               /* children kept under an account (0: all) */
	bool fold_users;
	double width;            /* of the SVG's tree, pixels */
	double min_w;            /* the narrowest box drawn under an account
				  * wide enough for all (0: widths strictly
				  * by shares) */
} _view_t;

/* What a view sums up instead of drawing. */
typedef struct {
	int accounts, users;
	double share, usage;     /* their parts of the parent's, added */
	double weight;           /* their widths' weights, added (SVG) */
	double fs_min, fs_sum;   /* the users' fair-share factors */
	int fs_n;
	const mf_assoc_t *fs_min_a;
} _sum_t;

typedef enum { ITEM_ASSOC, ITEM_USERS, ITEM_MORE, ITEM_BELOW } _kind_t;

typedef struct {
	_kind_t kind;
	const mf_assoc_t *a;     /* ITEM_ASSOC: the child; else the parent */
	_sum_t sum;
} _item_t;

static double _weight(const mf_assoc_t *a);

static double _nan0(double v)
{
	return isnan(v) ? 0 : v;
}

/* How far A's part of the usage is from its part of the shares. */
static double _unbalance(const mf_assoc_t *a)
{
	return fabs(_nan0(_usage_part(a)) - _nan0(_share_part(a)));
}

/* Fold A (and, with DEEP, everything under it) into SUM. */
static void _sum_add(_sum_t *sum, const mf_assoc_t *a, bool deep)
{
	if (a->user) {
		sum->users++;
		if (!isnan(a->fs_factor)) {
			if (!sum->fs_n || a->fs_factor < sum->fs_min) {
				sum->fs_min = a->fs_factor;
				sum->fs_min_a = a;
			}
			sum->fs_sum += a->fs_factor;
			sum->fs_n++;
		}
	} else {
		sum->accounts++;
	}
	if (deep && a->children)
		for (guint i = 0; i < a->children->len; i++)
			_sum_add(sum, a->children->pdata[i], true);
}

static int _by_unbalance(gconstpointer x, gconstpointer y)
{
	double a = _unbalance(*(const mf_assoc_t *const *) x);
	double b = _unbalance(*(const mf_assoc_t *const *) y);

	return (a < b) - (a > b);
}

static _item_t *_item(GPtrArray *items, _kind_t kind, const mf_assoc_t *a)
{
	_item_t *it = g_new0(_item_t, 1);

	it->kind = kind;
	it->a = a;
	g_ptr_array_add(items, it);
	return it;
}

/* Fold child C into the summary item IT (share, usage and weight too). */
static void _item_add(_item_t *it, const mf_assoc_t *c)
{
	_sum_add(&it->sum, c, false);
	it->sum.share += _nan0(_share_part(c));
	it->sum.usage += _nan0(_usage_part(c));
	it->sum.weight += _weight(c);
}

/*
 * What V draws under A, in sshare order: the children kept, then one item
 * for its folded users, then one for the children --top left out; or one
 * ITEM_BELOW when A is at the depth limit.  A new array (g_free each item).
 */
static GPtrArray *_items(const mf_assoc_t *a, const _view_t *v)
{
	GPtrArray *items = g_ptr_array_new_with_free_func(g_free);
	GHashTable *kept = NULL;
	_item_t *users = NULL, *more = NULL;

	if (!a->children || !a->children->len)
		return items;
	if (v->depth && a->depth - v->top->depth >= v->depth) {
		_item_t *below = _item(items, ITEM_BELOW, a);

		for (guint i = 0; i < a->children->len; i++)
			_sum_add(&below->sum, a->children->pdata[i], true);
		below->sum.share = below->sum.usage = 1;
		return items;
	}
	if (v->n_top) {
		GPtrArray *cand = g_ptr_array_new();

		for (guint i = 0; i < a->children->len; i++) {
			const mf_assoc_t *c = a->children->pdata[i];

			if (!(c->user && v->fold_users))
				g_ptr_array_add(cand, (gpointer) c);
		}
		if (cand->len > (guint) v->n_top) {
			g_ptr_array_sort(cand, _by_unbalance);
			kept = g_hash_table_new(g_direct_hash, g_direct_equal);
			for (int i = 0; i < v->n_top; i++)
				g_hash_table_add(kept, cand->pdata[i]);
		}
		g_ptr_array_free(cand, TRUE);
	}
	for (guint i = 0; i < a->children->len; i++) {
		const mf_assoc_t *c = a->children->pdata[i];

		if (c->user && v->fold_users) {
			if (!users)
				users = g_new0(_item_t, 1);
			_item_add(users, c);
		} else if (kept && !g_hash_table_contains(kept, c)) {
			if (!more)
				more = g_new0(_item_t, 1);
			_item_add(more, c);
		} else {
			_item(items, ITEM_ASSOC, c);
		}
	}
	if (users) {
		users->kind = ITEM_USERS;
		users->a = a;
		g_ptr_array_add(items, users);
	}
	if (more) {
		more->kind = ITEM_MORE;
		more->a = a;
		g_ptr_array_add(items, more);
	}
	if (kept)
		g_hash_table_destroy(kept);
	return items;
}

/* The label of a summary item (g_free). */
static char *_sum_label(const _item_t *it)
{
	const _sum_t *s = &it->sum;

	switch (it->kind) {
	case ITEM_USERS:
		return g_strdup_printf("[%d user%s]", s->users,
				       s->users == 1 ? "" : "s");
	case ITEM_MORE:
		if (!s->users)
			return g_strdup_printf("[+%d more account%s]",
					       s->accounts,
					       s->accounts == 1 ? "" : "s");
		if (!s->accounts)
			return g_strdup_printf("[+%d more user%s]", s->users,
					       s->users == 1 ? "" : "s");
		return g_strdup_printf("[+%d more: %d accounts, %d users]",
				       s->accounts + s->users, s->accounts,
				       s->users);
	case ITEM_BELOW:
		if (!s->accounts)
			return g_strdup_printf("[below: %d user%s]", s->users,
					       s->users == 1 ? "" : "s");
		return g_strdup_printf("[below: %d account%s, %d user%s]",
				       s->accounts, s->accounts == 1 ? "" : "s",
				       s->users, s->users == 1 ? "" : "s");
	default:
		return g_strdup("?");
	}
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

/* One line of the text: an association or a sum. */
typedef struct {
	char *name;              /* indented */
	double share, usage;     /* parts of the parent's (NAN: none) */
	bool parent_fs;
	double norm, eff, fs, lfs;
	const char *note;        /* after the numbers, or NULL */
	char *note_buf;
} _trow_t;

static void _trow_free(gpointer p)
{
	_trow_t *r = p;

	g_free(r->name);
	g_free(r->note_buf);
	g_free(r);
}

/* The rows of A and what V draws under it, into ROWS. */
static void _text_rows(GPtrArray *rows, const mf_assoc_t *a,
		       const _view_t *v, mf_fs_algo_t algo)
{
	_trow_t *r = g_new0(_trow_t, 1);
	int ind = 2 * (a->depth - v->top->depth);
	GPtrArray *items;

	r->name = a->partition ?
		g_strdup_printf("%*s%s [%s]", ind, "", a->user, a->partition) :
		g_strdup_printf("%*s%s", ind, "", a->user ? a->user : a->acct);
	r->share = _share_part(a);
	r->usage = _usage_part(a);
	r->parent_fs = mf_assoc_is_parent_fs(a);
	r->norm = a->shares_norm;
	r->eff = (double) a->usage_efctv;
	r->fs = (algo == MF_FS_FAIR_TREE && !a->user) ? NAN : a->fs_factor;
	r->lfs = (r->parent_fs || a->level_fs == MF_LEVEL_FS_UNSET) ? NAN :
		(double) a->level_fs;
	g_ptr_array_add(rows, r);

	items = _items(a, v);
	for (guint i = 0; i < items->len; i++) {
		const _item_t *it = items->pdata[i];
		_trow_t *s;
		char *label;

		if (it->kind == ITEM_ASSOC) {
			_text_rows(rows, it->a, v, algo);
			continue;
		}
		/* an account's folded users: a note on its own row */
		if (it->kind == ITEM_USERS) {
			char *ul = _sum_label(it);

			r->note = r->note_buf = it->sum.fs_n ?
				g_strdup_printf("%s fair-share lowest %.6f "
						"(%s), mean %.6f", ul,
						it->sum.fs_min,
						it->sum.fs_min_a->user,
						it->sum.fs_sum / it->sum.fs_n) :
				g_strdup(ul);
			g_free(ul);
			continue;
		}
		s = g_new0(_trow_t, 1);
		label = _sum_label(it);
		s->name = g_strdup_printf("%*s%s", ind + 2, "", label);
		g_free(label);
		s->share = it->kind == ITEM_BELOW ? NAN : it->sum.share;
		s->usage = it->kind == ITEM_BELOW ? NAN : it->sum.usage;
		s->norm = s->eff = s->lfs = NAN;
		s->fs = it->sum.fs_n ? it->sum.fs_min : NAN;
		if (it->sum.fs_n)
			s->note = s->note_buf = g_strdup_printf(
				"lowest %s, mean %.6f",
				it->sum.fs_min_a->user,
				it->sum.fs_sum / it->sum.fs_n);
		g_ptr_array_add(rows, s);
	}
	g_ptr_array_free(items, TRUE);
}

static void _print_text(FILE *out, const mf_tree_t *t, mf_fs_algo_t algo,
			bool color, const _view_t *v, const char *note)
{
	const char *charset;
	bool utf8;
	GPtrArray *rows = g_ptr_array_new_with_free_func(_trow_free);
	int w = 12;
	GString *g = g_string_new(NULL);

	/* the character set only (numbers keep the C locale's point) */
	setlocale(LC_CTYPE, "");
	utf8 = g_get_charset(&charset);
	_text_rows(rows, v->top, v, algo);
	for (guint i = 0; i < rows->len; i++) {
		const _trow_t *r = rows->pdata[i];
		int n = (int) g_utf8_strlen(r->name, -1);

		if (n > w)
			w = n;
	}
	fprintf(out, "Fair-share algorithm: %s.  Bars: part of the parent's "
		"shares, part of the parent's usage.\n", mf_fs_algo_name(algo));
	if (note)
		fprintf(out, "%s\n", note);
	fprintf(out, "%-*s %-*s %6s %-*s %6s %9s %9s %9s%s\n", w,
		"Account/User", BAR, "Shares", "", BAR, "Usage", "",
		"NormShare", "EffUsage", "FairShare",
		algo == MF_FS_FAIR_TREE ? "   LevelFS" : "");
	for (guint i = 0; i < rows->len; i++) {
		const _trow_t *r = rows->pdata[i];
		double s = r->share, u = r->usage;
		const char *uc = NULL;

		if (color)
			uc = !isnan(s) && !isnan(u) && u > s ? "\033[31m" :
				"\033[32m";
		g_string_truncate(g, 0);
		g_string_append(g, r->name);
		for (int k = (int) g_utf8_strlen(r->name, -1); k <= w; k++)
			g_string_append_c(g, ' ');
		_bar(g, s, utf8, color ? "\033[36m" : NULL, "\033[2m");
		if (r->parent_fs)
			g_string_append_printf(g, " %6s", "parent");
		else
			_pct(g, s);
		g_string_append_c(g, ' ');
		_bar(g, u, utf8, uc, "\033[2m");
		_pct(g, u);
		_num(g, r->norm);
		_num(g, r->eff);
		_num(g, r->fs);
		if (algo != MF_FS_FAIR_TREE)
			;       /* classic: no level fair-share */
		else if (!isnan(r->lfs) && isinf(r->lfs))
			g_string_append_printf(g, " %9s", "inf");
		else
			_num(g, r->lfs);
		if (r->note)
			g_string_append_printf(g, "  %s", r->note);
		fprintf(out, "%s\n", g->str);
	}
	g_string_free(g, TRUE);
	g_ptr_array_free(rows, TRUE);
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

/* The colour of level fair-share L (an account under Fair Tree): on a
 * log scale, 1/4 and under red, 1 yellow, 4 and over green. */
static void _lfs_color(long double l, char buf[8])
{
	if (isnan(l) || l == MF_LEVEL_FS_UNSET) {
		_fs_color(NAN, buf);
		return;
	}
	if (l <= 0) {
		_fs_color(0, buf);
		return;
	}
	_fs_color(0.5 + log2((double) l) / 4, buf);
}

typedef struct {
	FILE *out;
	const _view_t *v;
	mf_fs_algo_t algo;
	int depth;               /* the deepest row drawn */
} _svg_t;

/* One box: its tooltip TITLE (XML-escaped here), LABEL drawn in it when it
 * fits. */
static void _svg_box(_svg_t *sv, int row, double x, double w,
		     const char *fill, const char *title, const char *label)
{
	double y = TOP + ROW_H * row;

	if (row > sv->depth)
		sv->depth = row;
	fprintf(sv->out, "<g><title>");
	_xml(sv->out, title);
	fprintf(sv->out, "</title><rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
		"height=\"%.2f\" fill=\"%s\" stroke=\"#ffffff\"/>",
		x, y, w > 1 ? w : 1, ROW_H - 2, fill);
	if (w >= 7.0 * (double) g_utf8_strlen(label, -1) + 6) {
		fprintf(sv->out, "<text x=\"%.2f\" y=\"%.2f\">", x + w / 2,
			y + ROW_H / 2 + 3);
		_xml(sv->out, label);
		fputs("</text>", sv->out);
	} else if (sv->v->min_w > 0 && w >= 7.0 * 4 + 6) {
		/* the start of the name and an ellipsis */
		glong n = (glong) ((w - 6) / 7.0) - 1;
		char *cut = g_utf8_substring(label, 0, n);

		fprintf(sv->out, "<text x=\"%.2f\" y=\"%.2f\">", x + w / 2,
			y + ROW_H / 2 + 3);
		_xml(sv->out, cut);
		fputs("\u2026</text>", sv->out);
		g_free(cut);
	}
	fputs("</g>\n", sv->out);
}

/* The width the boxes under A need so that none is narrower than V's
 * min_w: at least min_w itself, at least what its items need. */
static double _need(const mf_assoc_t *a, const _view_t *v)
{
	GPtrArray *items;
	double sum = 0;

	if (!(v->min_w > 0))
		return 0;
	items = _items(a, v);
	for (guint i = 0; i < items->len; i++) {
		const _item_t *it = items->pdata[i];

		sum += it->kind == ITEM_ASSOC ? _need(it->a, v) : v->min_w;
	}
	g_ptr_array_free(items, TRUE);
	return MAX(sum, v->min_w);
}

/*
 * Widths for N boxes of weights WT sharing W pixels: by weight, except
 * that a box is never narrower than its MIN[i] (when all fit), the others
 * sharing what is left by weight.  Into OUT.
 */
static void _fit_widths(const double *wt, const double *min, guint n,
			double w, double *out)
{
	bool *fixed = g_new0(bool, n ? n : 1);
	bool changed = true;
	double total_min = 0;

	for (guint i = 0; i < n; i++)
		total_min += min[i];
	while (changed) {
		double rest_w = w, rest_wt = 0;

		changed = false;
		for (guint i = 0; i < n; i++) {
			if (fixed[i])
				rest_w -= min[i];
			else
				rest_wt += wt[i];
		}
		for (guint i = 0; i < n; i++) {
			if (fixed[i]) {
				out[i] = min[i];
				continue;
			}
			out[i] = rest_wt > 0 ? rest_w * wt[i] / rest_wt : 0;
			if (w >= total_min && out[i] < min[i]) {
				fixed[i] = true;
				changed = true;
			}
		}
	}
	g_free(fixed);
}

/* The title (tooltip) of A's box: its shares, usage and factors.
 * Returns it, to g_free(). */
static char *_svg_title(const mf_assoc_t *a)
{
	GString *t = g_string_new(NULL);

	if (a->user)
		g_string_append_printf(t, "%s in ", a->user);
	g_string_append(t, a->acct);
	if (a->partition)
		g_string_append_printf(t, " on partition %s", a->partition);
	if (mf_assoc_is_parent_fs(a))
		g_string_append(t, ": shares parent");
	else
		g_string_append_printf(t, ": shares %u", a->shares_raw);
	g_string_append_printf(t, ", norm shares %.6f, effective usage %.6f, "
			       "raw usage %.0Lf, fair-share ", a->shares_norm,
			       (double) a->usage_efctv, a->usage_raw);
	if (isnan(a->fs_factor))
		g_string_append(t, "none");
	else
		g_string_append_printf(t, "%.6f", a->fs_factor);
	if (!a->user && !isnan(a->level_fs) &&
	    a->level_fs != MF_LEVEL_FS_UNSET)
		g_string_append_printf(t, ", level fair-share %.6Lf",
				       a->level_fs);
	return g_string_free(t, FALSE);
}

/* The widths of ITEMS in a box W wide, each by its weight and no
 * narrower than it needs in view V.  Returns them, to g_free(). */
static double *_svg_widths(const GPtrArray *items, const _view_t *v, double w)
{
	double *wt = g_new(double, items->len + 1);
	double *cws = g_new(double, items->len + 1);
	double *mins = g_new(double, items->len + 1);
	double sum = 0;

	for (guint i = 0; i < items->len; i++) {
		const _item_t *it = items->pdata[i];

		wt[i] = it->kind == ITEM_ASSOC ? _weight(it->a) :
			it->kind == ITEM_BELOW ? 1 : it->sum.weight;
		mins[i] = it->kind == ITEM_ASSOC ? _need(it->a, v) : v->min_w;
		sum += wt[i];
	}
	/* FairShare=parent only users (weight 0 each): equal widths */
	if (!(sum > 0))
		for (guint i = 0; i < items->len; i++)
			wt[i] = 1;
	_fit_widths(wt, mins, items->len, w, cws);
	g_free(wt);
	g_free(mins);
	return cws;
}

/* The box of IT, a summary of some of A's children (folded users, more
 * children, the levels below), in ROW at X, W wide.  Returns nothing. */
static void _svg_summary(_svg_t *sv, const mf_assoc_t *a, const _item_t *it,
			 int row, double x, double w)
{
	char col[8];
	char *label = _sum_label(it), *title;

	if (it->kind == ITEM_USERS && it->sum.fs_n) {
		_fs_color(it->sum.fs_sum / it->sum.fs_n, col);
		title = g_strdup_printf(
			"%s of %s: shares %.1f%% and usage %.1f%% of "
			"the account's, fair-share mean %.6f, lowest "
			"%.6f (%s)", label, a->acct,
			100 * it->sum.share, 100 * it->sum.usage,
			it->sum.fs_sum / it->sum.fs_n, it->sum.fs_min,
			it->sum.fs_min_a->user);
	} else {
		snprintf(col, sizeof(col), "#dddddd");
		title = g_strdup_printf(
			"%s under %s%s", label, a->acct,
			it->kind == ITEM_MORE ? ": the children whose "
			"usage is closest to their shares" : "");
	}
	_svg_box(sv, row, x, w, col, title, label);
	g_free(label);
	g_free(title);
}

/* The box of A at X, W wide, and under it the boxes of its children in
 * the view.  Returns nothing. */
static void _svg_node(_svg_t *sv, const mf_assoc_t *a, double x, double w)
{
	char col[8];
	double cx = x;
	const char *name = a->user ? a->user : a->acct;
	int row = a->depth - sv->v->top->depth;
	char *title = _svg_title(a);
	GPtrArray *items;
	double *cws;

	if (!a->user && sv->algo == MF_FS_FAIR_TREE)
		_lfs_color(a == sv->v->top && !a->parent ? NAN : a->level_fs,
			   col);
	else
		_fs_color(a->fs_factor, col);
	_svg_box(sv, row, x, w, col, title, name);
	g_free(title);

	items = _items(a, sv->v);
	cws = _svg_widths(items, sv->v, w);
	for (guint i = 0; i < items->len; i++) {
		const _item_t *it = items->pdata[i];

		if (it->kind == ITEM_ASSOC)
			_svg_node(sv, it->a, cx, cws[i]);
		else
			_svg_summary(sv, a, it, row + 1, cx, cws[i]);
		cx += cws[i];
	}
	g_free(cws);
	g_ptr_array_free(items, TRUE);
}

/* The SVG's opening of a picture W wide and H high for ALGO: the
 * gradient, the style and the title.  Returns nothing. */
static void _svg_head(FILE *out, double W, double h, mf_fs_algo_t algo)
{
	bool ft = algo == MF_FS_FAIR_TREE;

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
		"width = part of the parent's shares, colour = %s (%s)"
		"</text>\n", W + 20, h, W + 20, h,
		(W + 20) / 2, ft ? "fair-share factor of users, level "
		"fair-share of accounts" : "fair-share factor",
		mf_fs_algo_name(algo));
}

/* The legend of the colours at LY, with Fair Tree's (FT) accounts' scale.
 * Returns nothing. */
static void _svg_legend(FILE *out, double ly, bool ft)
{
	fprintf(out, "<g><text x=\"60\" y=\"%.0f\">%s</text>"
		"<rect x=\"120\" y=\"%.0f\" width=\"200\" height=\"14\" "
		"fill=\"url(#fs)\"/>"
		"<text x=\"120\" y=\"%.0f\">0</text>"
		"<text x=\"220\" y=\"%.0f\">0.5</text>"
		"<text x=\"320\" y=\"%.0f\">1</text>"
		"<rect x=\"360\" y=\"%.0f\" width=\"14\" height=\"14\" "
		"fill=\"#bbbbbb\"/>"
		"<text x=\"440\" y=\"%.0f\">no factor</text></g>\n",
		ly + 11, ft ? "users" : "fair-share", ly, ly + 28, ly + 28,
		ly + 28, ly, ly + 11);
	if (ft)
		fprintf(out, "<g><text x=\"60\" y=\"%.0f\">accounts</text>"
			"<rect x=\"120\" y=\"%.0f\" width=\"200\" "
			"height=\"14\" fill=\"url(#fs)\"/>"
			"<text x=\"120\" y=\"%.0f\">1/4</text>"
			"<text x=\"220\" y=\"%.0f\">1</text>"
			"<text x=\"320\" y=\"%.0f\">4</text>"
			"<text x=\"600\" y=\"%.0f\">level fair-share: shares "
			"over usage among siblings</text></g>\n",
			ly + 41, ly + 30, ly + 58, ly + 58, ly + 58, ly + 41);
}

/* Write view V of the tree, by ALGO, as SVG to PATH ("-": stdout), with
 * NOTE (may be NULL) at the bottom.  Returns an exit status. */
static int _write_svg(const char *path, const mf_tree_t *t,
		      mf_fs_algo_t algo, const _view_t *v, const char *note)
{
	FILE *out = strcmp(path, "-") ? fopen(path, "w") : stdout;
	char *body = NULL;
	size_t body_len = 0;
	_svg_t sv = { .v = v, .algo = algo };
	bool ft = algo == MF_FS_FAIR_TREE;
	double h, ly, W = v->width > 0 ? v->width : SVG_W;

	/* wide enough for every box's minimum */
	W = MAX(W, _need(v->top, v));

	(void) t;
	if (!out) {
		mf_cmd_error("--svg %s: cannot write it", path);
		return MF_EXIT_INPUT;
	}
	/* the boxes first, to know how many rows there are */
	sv.out = open_memstream(&body, &body_len);
	if (!sv.out) {
		mf_cmd_error("--svg %s: out of memory", path);
		if (out != stdout)
			fclose(out);
		return MF_EXIT_INPUT;
	}
	_svg_node(&sv, v->top, 10, W);
	fclose(sv.out);
	ly = TOP + ROW_H * (sv.depth + 1) + 20;
	h = ly + (ft ? 80 : 50);
	_svg_head(out, W, h, algo);
	fwrite(body, 1, body_len, out);
	free(body);
	_svg_legend(out, ly, ft);
	if (note)
		fprintf(out, "<text x=\"%.0f\" y=\"%.0f\" "
			"font-size=\"11\">%s</text>\n", (W + 20) / 2,
			h - 6, note);
	fputs("</svg>\n", out);
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

/* What the command line of `mfprio tree` asks for. */
typedef struct {
	const char *assoc, *usage, *conf, *svg;
	const char *flags_arg, *snapshot, *when;
	const char *account, *users;
	_view_t view;
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
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const struct option *opts = mf_iopt_longopts(_MASK, own);
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
		case 'h':
			_usage(stdout);
			return 1;
		default:
			_usage(stderr);
			return -1;
		}
	}
	if (optind < argc) {
		mf_cmd_error("tree: unexpected argument '%s'", argv[optind]);
		return -1;
	}
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
	_view_t *view = &o->view;

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
		rc = _write_svg(o.svg, tree, algo, &o.view, note);
	else if (!rc)
		_print_text(stdout, tree, algo, o.color, &o.view, note);
	g_free(note);
	if (tree)
		mf_tree_destroy(tree);
	mf_snapdir_clear(&snap);
	if (!rc && fflush(stdout))
		rc = MF_EXIT_INPUT;
	return rc;
}
