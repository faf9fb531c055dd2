/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tree_svg: `mfprio tree --svg` (tree_svg.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "exit_status.h"
#include "level_fs.h"
#include "markup.h"
#include "tree_svg.h"

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

#define SVG_W 1000.0
#define ROW_H 30.0
#define TOP 40.0

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

/* A left-aligned text at X, Y.  Returns nothing. */
static void _svg_ltext(FILE *out, double x, double y, const char *s)
{
	fprintf(out, "<text x=\"%.2f\" y=\"%.2f\" style=\"text-anchor:start\">",
		x, y);
	mf_markup_text(out, s);
	fputs("</text>", out);
}

typedef struct {
	FILE *out;
	const mf_tview_t *v;
	mf_fs_algo_t algo;
	int depth;               /* the deepest row drawn */
} _svg_t;

/* One box: its tooltip TITLE (XML-escaped here), LABEL drawn in it when it
 * fits. */
static void _svg_box_at(_svg_t *sv, double y, double x, double w,
			const char *fill, const char *title, const char *label,
			bool left)
{
	fprintf(sv->out, "<g><title>");
	mf_markup_text(sv->out, title);
	fprintf(sv->out, "</title><rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
		"height=\"%.2f\" fill=\"%s\" stroke=\"#ffffff\"/>",
		x, y, w > 1 ? w : 1, ROW_H - 2, fill);
	if (left) {
		_svg_ltext(sv->out, x + 6, y + ROW_H / 2 + 3, label);
	} else if (w >= 7.0 * (double) g_utf8_strlen(label, -1) + 6) {
		fprintf(sv->out, "<text x=\"%.2f\" y=\"%.2f\">", x + w / 2,
			y + ROW_H / 2 + 3);
		mf_markup_text(sv->out, label);
		fputs("</text>", sv->out);
	} else if (sv->v->min_w > 0 && w >= 7.0 * 4 + 6) {
		/* the start of the name and an ellipsis */
		glong n = (glong) ((w - 6) / 7.0) - 1;
		char *cut = g_utf8_substring(label, 0, n);

		fprintf(sv->out, "<text x=\"%.2f\" y=\"%.2f\">", x + w / 2,
			y + ROW_H / 2 + 3);
		mf_markup_text(sv->out, cut);
		fputs("\u2026</text>", sv->out);
		g_free(cut);
	}
	fputs("</g>\n", sv->out);
}

/* One box in ROW of the icicle (see _svg_box_at).  Returns nothing. */
static void _svg_box(_svg_t *sv, int row, double x, double w,
		     const char *fill, const char *title, const char *label)
{
	if (row > sv->depth)
		sv->depth = row;
	_svg_box_at(sv, TOP + ROW_H * row, x, w, fill, title, label, false);
}

/* The width the boxes under A need so that none is narrower than V's
 * min_w: at least min_w itself, at least what its items need. */
static double _need(const mf_assoc_t *a, const mf_tview_t *v)
{
	GPtrArray *items;
	double sum = 0;

	if (!(v->min_w > 0))
		return 0;
	items = mf_tview_items(a, v);
	for (guint i = 0; i < items->len; i++) {
		const mf_titem_t *it = items->pdata[i];

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
static double *_svg_widths(const GPtrArray *items, const mf_tview_t *v, double w)
{
	double *wt = g_new(double, items->len + 1);
	double *cws = g_new(double, items->len + 1);
	double *mins = g_new(double, items->len + 1);
	double sum = 0;

	for (guint i = 0; i < items->len; i++) {
		const mf_titem_t *it = items->pdata[i];

		wt[i] = it->kind == ITEM_ASSOC ? mf_tview_weight(it->a) :
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
 * children, the levels below), at X, Y, W wide, its label at the LEFT or
 * centred.  Returns nothing. */
static void _svg_summary_at(_svg_t *sv, const mf_assoc_t *a,
			    const mf_titem_t *it, double y, double x, double w,
			    bool left)
{
	char col[8];
	char *label = mf_tview_sum_label(it), *title;

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
	_svg_box_at(sv, y, x, w, col, title, label, left);
	g_free(label);
	g_free(title);
}

/* The box of summary IT under A in ROW of the icicle.  Returns nothing. */
static void _svg_summary(_svg_t *sv, const mf_assoc_t *a, const mf_titem_t *it,
			 int row, double x, double w)
{
	if (row > sv->depth)
		sv->depth = row;
	_svg_summary_at(sv, a, it, TOP + ROW_H * row, x, w, false);
}

/* The fill of A's box into COL.  Returns nothing. */
static void _node_color(const _svg_t *sv, const mf_assoc_t *a, char col[8])
{
	if (!a->user && sv->algo == MF_FS_FAIR_TREE)
		_lfs_color(a == sv->v->top && !a->parent ? NAN : a->level_fs,
			   col);
	else
		_fs_color(a->fs_factor, col);
}

static double _nan0(double v)
{
	return isnan(v) ? 0 : v;
}

/*
 * The list layout, for a view with a level too wide for an icicle (more
 * than ICICLE_MAX items under an account): a row per association, as in
 * the text, indented by depth; its name in full in a box of its colour,
 * two bars (its part of the parent's shares, of its usage: red over the
 * shares, green under, scaled to the widest among its siblings) and the
 * figures, then its folded users as a box; a summary ("+K more", "below")
 * a grey row of its own.
 */
#define ICICLE_MAX 12
#define LIST_IND 16.0
#define LIST_BAR 240.0
#define LIST_NUM 250.0
#define CHAR_W 7.0
#define LIST_W 1200.0           /* the note at the bottom fits */

typedef struct {
	double name_w, sum_w;    /* the name and the folded users columns */
	int row;                 /* the next row */
} _list_t;

/* The widest label of the list of A (at indent IND) into L. */
static void _list_measure(const mf_assoc_t *a, const mf_tview_t *v,
			  double ind, _list_t *l)
{
	const char *name = a->user ? a->user : a->acct;
	GPtrArray *items = mf_tview_items(a, v);

	l->name_w = MAX(l->name_w, ind + CHAR_W * g_utf8_strlen(name, -1) + 14);
	for (guint i = 0; i < items->len; i++) {
		const mf_titem_t *it = items->pdata[i];
		char *label;

		if (it->kind == ITEM_ASSOC) {
			_list_measure(it->a, v, ind + LIST_IND, l);
			continue;
		}
		label = mf_tview_sum_label(it);
		if (it->kind == ITEM_USERS)
			l->sum_w = MAX(l->sum_w, CHAR_W * g_utf8_strlen(label, -1) + 14);
		else
			l->name_w = MAX(l->name_w, ind + LIST_IND + CHAR_W *
					g_utf8_strlen(label, -1) + 14);
		g_free(label);
	}
	g_ptr_array_free(items, TRUE);
}

/* The figures of a row: parts SHARE and USAGE of the parent's (NAN:
 * none), their bars scaled to SCALE when BARS.  Returns nothing. */
static void _list_figs(_svg_t *sv, const _list_t *l, double y, double share,
		       double usage, double scale, bool bars)
{
	double xb = 10 + l->name_w + 8, xn = xb + LIST_BAR + 8;
	char buf[96];

	if (bars && scale > 0) {
		if (!isnan(share))
			fprintf(sv->out, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
				"height=\"9\" fill=\"#4a7ab0\"/>", xb, y + 4,
				LIST_BAR * MIN(share / scale, 1));
		if (!isnan(usage))
			fprintf(sv->out, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
				"height=\"9\" fill=\"%s\"/>", xb, y + 15,
				LIST_BAR * MIN(usage / scale, 1),
				!isnan(share) && usage > share ? "#d70030" :
				"#00af30");
	}
	if (isnan(share) && isnan(usage))
		return;
	snprintf(buf, sizeof(buf), "shares %s%.1f%%, usage %.1f%%%s",
		 isnan(share) ? "parent " : "", isnan(share) ? 0 : 100 * share,
		 isnan(usage) ? 0 : 100 * usage, bars ? "" : " in sum");
	if (isnan(share))
		snprintf(buf, sizeof(buf), "shares parent, usage %.1f%%",
			 isnan(usage) ? 0 : 100 * usage);
	_svg_ltext(sv->out, xn, y + ROW_H / 2 + 3, buf);
}

/* The widest part of the parent's shares or usage among ITEMS (for the
 * bars).  Returns it. */
static double _list_scale(const GPtrArray *items)
{
	double m = 0;

	for (guint i = 0; i < items->len; i++) {
		const mf_titem_t *it = items->pdata[i];

		if (it->kind != ITEM_ASSOC)
			continue;
		m = MAX(m, _nan0(mf_tview_share_part(it->a)));
		m = MAX(m, _nan0(mf_tview_usage_part(it->a)));
	}
	return m;
}

/* The row of A at indent IND (bars scaled to SCALE), the rows of what is
 * under it after.  Returns nothing. */
static void _svg_list(_svg_t *sv, _list_t *l, const mf_assoc_t *a,
		      double ind, double scale)
{
	const char *name = a->user ? a->user : a->acct;
	double y = TOP + ROW_H * l->row, cs;
	char col[8], *title = _svg_title(a);
	GPtrArray *items = mf_tview_items(a, sv->v);

	sv->depth = MAX(sv->depth, l->row);
	l->row++;
	_node_color(sv, a, col);
	fputs("<g><title>", sv->out);
	mf_markup_text(sv->out, title);
	fprintf(sv->out, "</title><rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
		"height=\"%.2f\" fill=\"%s\" stroke=\"#ffffff\"/>", 10 + ind, y,
		l->name_w - ind, ROW_H - 2, col);
	_svg_ltext(sv->out, 10 + ind + 6, y + ROW_H / 2 + 3, name);
	_list_figs(sv, l, y, mf_tview_share_part(a), mf_tview_usage_part(a),
		   scale, true);
	fputs("</g>\n", sv->out);
	g_free(title);
	cs = _list_scale(items);
	for (guint i = 0; i < items->len; i++) {
		const mf_titem_t *it = items->pdata[i];
		double sx = 10 + l->name_w + 16 + LIST_BAR + LIST_NUM;
		double sy = TOP + ROW_H * l->row;

		if (it->kind == ITEM_ASSOC) {
			_svg_list(sv, l, it->a, ind + LIST_IND, cs);
		} else if (it->kind == ITEM_USERS) {
			_svg_summary_at(sv, a, it, y, sx, l->sum_w, false);
		} else {
			sv->depth = MAX(sv->depth, l->row);
			l->row++;
			_svg_summary_at(sv, a, it, sy, 10 + ind + LIST_IND,
					l->name_w - ind - LIST_IND, true);
			_list_figs(sv, l, sy, it->kind == ITEM_MORE ?
				   it->sum.share : NAN, it->kind == ITEM_MORE ?
				   it->sum.usage : NAN, cs, false);
		}
	}
	g_ptr_array_free(items, TRUE);
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

	_node_color(sv, a, col);
	_svg_box(sv, row, x, w, col, title, name);
	g_free(title);

	items = mf_tview_items(a, sv->v);
	cws = _svg_widths(items, sv->v, w);
	for (guint i = 0; i < items->len; i++) {
		const mf_titem_t *it = items->pdata[i];

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
static void _svg_head(FILE *out, double W, double h, mf_fs_algo_t algo,
		      bool list)
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
		"%s, colour = %s (%s)"
		"</text>\n", W + 20, h, W + 20, h,
		(W + 20) / 2, list ? "bars = part of the parent's shares "
		"(blue) and usage (red: over the shares)" :
		"width = part of the parent's shares", ft ? "fair-share factor of users, level "
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
int mf_tree_write_svg(const char *path, const mf_tree_t *t,
		      mf_fs_algo_t algo, const mf_tview_t *v, const char *note)
{
	FILE *out = strcmp(path, "-") ? fopen(path, "w") : stdout;
	char *body = NULL;
	size_t body_len = 0;
	_svg_t sv = { .v = v, .algo = algo };
	bool ft = algo == MF_FS_FAIR_TREE;
	double h, ly, W = v->width > 0 ? v->width : SVG_W;
	bool list = mf_tview_widest(v->top, v) > ICICLE_MAX;
	_list_t l = { 0 };

	if (list) {
		_list_measure(v->top, v, 0, &l);
		W = MAX(LIST_W, l.name_w + 16 + LIST_BAR + LIST_NUM + l.sum_w);
	} else {
		/* wide enough for every box's minimum */
		W = MAX(W, _need(v->top, v));
	}

	(void) t;
	if (!out) {
		mf_print_error("--svg %s: cannot write it", path);
		return MF_EXIT_INPUT;
	}
	/* the boxes first, to know how many rows there are */
	sv.out = open_memstream(&body, &body_len);
	if (!sv.out) {
		mf_print_error("--svg %s: out of memory", path);
		if (out != stdout)
			fclose(out);
		return MF_EXIT_INPUT;
	}
	if (list)
		_svg_list(&sv, &l, v->top, 0, 0);
	else
		_svg_node(&sv, v->top, 10, W);
	fclose(sv.out);
	ly = TOP + ROW_H * (sv.depth + 1) + 20;
	h = ly + (ft ? 80 : 50);
	_svg_head(out, W, h, algo, list);
	fwrite(body, 1, body_len, out);
	free(body);
	_svg_legend(out, ly, ft);
	if (note)
		fprintf(out, "<text x=\"%.0f\" y=\"%.0f\" "
			"font-size=\"11\">%s</text>\n", (W + 20) / 2,
			h - 6, note);
	fputs("</svg>\n", out);
	if (out != stdout ? fclose(out) : fflush(out)) {
		mf_print_error("--svg %s: write failed", path);
		return MF_EXIT_INPUT;
	}
	return MF_EXIT_OK;
}

