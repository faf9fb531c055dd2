/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tree_svg: `mfprio tree --svg` (tree_svg.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "cmd_error.h"
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

typedef struct {
	FILE *out;
	const mf_tview_t *v;
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
	mf_markup_text(sv->out, title);
	fprintf(sv->out, "</title><rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
		"height=\"%.2f\" fill=\"%s\" stroke=\"#ffffff\"/>",
		x, y, w > 1 ? w : 1, ROW_H - 2, fill);
	if (w >= 7.0 * (double) g_utf8_strlen(label, -1) + 6) {
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
 * children, the levels below), in ROW at X, W wide.  Returns nothing. */
static void _svg_summary(_svg_t *sv, const mf_assoc_t *a, const mf_titem_t *it,
			 int row, double x, double w)
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
int mf_tree_write_svg(const char *path, const mf_tree_t *t,
		      mf_fs_algo_t algo, const mf_tview_t *v, const char *note)
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

