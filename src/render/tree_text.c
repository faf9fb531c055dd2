/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tree_text: `mfprio tree` in text (tree_text.h).
 */
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "level_fs.h"
#include "tree_text.h"

#define BAR 20

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
		       const mf_tview_t *v, mf_fs_algo_t algo)
{
	_trow_t *r = g_new0(_trow_t, 1);
	int ind = 2 * (a->depth - v->top->depth);
	GPtrArray *items;

	r->name = a->partition ?
		g_strdup_printf("%*s%s [%s]", ind, "", a->user, a->partition) :
		g_strdup_printf("%*s%s", ind, "", a->user ? a->user : a->acct);
	r->share = mf_tview_share_part(a);
	r->usage = mf_tview_usage_part(a);
	r->parent_fs = mf_assoc_is_parent_fs(a);
	r->norm = a->shares_norm;
	r->eff = (double) a->usage_efctv;
	r->fs = (algo == MF_FS_FAIR_TREE && !a->user) ? NAN : a->fs_factor;
	r->lfs = (r->parent_fs || a->level_fs == MF_LEVEL_FS_UNSET) ? NAN :
		(double) a->level_fs;
	g_ptr_array_add(rows, r);

	items = mf_tview_items(a, v);
	for (guint i = 0; i < items->len; i++) {
		const mf_titem_t *it = items->pdata[i];
		_trow_t *s;
		char *label;

		if (it->kind == ITEM_ASSOC) {
			_text_rows(rows, it->a, v, algo);
			continue;
		}
		/* an account's folded users: a note on its own row */
		if (it->kind == ITEM_USERS) {
			char *ul = mf_tview_sum_label(it);

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
		label = mf_tview_sum_label(it);
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

void mf_tree_print_text(FILE *out, const mf_tree_t *t, mf_fs_algo_t algo,
			bool color, const mf_tview_t *v, const char *note)
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

