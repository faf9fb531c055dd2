/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tree_view: what `mfprio tree` draws of an association tree, the same in
 * text (tree_text.h) and SVG (tree_svg.h): under each account the
 * children kept, one item for its folded users and one for the children
 * --top left out (those kept ranked by rank_gap.h), or one for what is
 * below --depth; each association's
 * parts of its parent's shares and usage, and its weight among its
 * siblings for the widths.
 */
#ifndef MFPRIO_TREE_VIEW_H
#define MFPRIO_TREE_VIEW_H

#include <stdbool.h>

#include <glib.h>

#include "assoc_tree.h"

typedef struct {
	const mf_assoc_t *top;   /* the view's top association */
	int depth;               /* levels drawn under top (0: all) */
	int n_top;               /* children kept under an account (0: all) */
	bool fold_users;
	double width;            /* of the SVG's tree, pixels */
	double min_w;            /* the narrowest box drawn under an account
				  * wide enough for all (0: widths strictly
				  * by shares) */
} mf_tview_t;

/* What a view sums up instead of drawing. */
typedef struct {
	int accounts, users;
	int held_users;          /* the users under the accounts summed by
				  * ITEM_MORE, at any depth */
	double share, usage;     /* their parts of the parent's, added */
	double weight;           /* their widths' weights, added (SVG) */
	double fs_min, fs_sum;   /* the users' fair-share factors */
	int fs_n;
	const mf_assoc_t *fs_min_a;
} mf_tsum_t;

/* A row or box of the view: an association, or what it sums up. */
typedef enum { ITEM_ASSOC, ITEM_USERS, ITEM_MORE, ITEM_BELOW } mf_titem_kind_t;

typedef struct {
	mf_titem_kind_t kind;
	const mf_assoc_t *a;     /* ITEM_ASSOC: the child; else the parent */
	mf_tsum_t sum;
} mf_titem_t;

/* A's part of its parent's shares, 0..1; NAN for FairShare=parent or the
 * root.  Returns it. */
double mf_tview_share_part(const mf_assoc_t *a);

/* A's part of its parent's usage, 0..1; NAN for the root or no usage.
 * Returns it. */
double mf_tview_usage_part(const mf_assoc_t *a);

/* The weight of A among its siblings (for the widths).  Returns it. */
double mf_tview_weight(const mf_assoc_t *a);

/* What V draws under A: its children in sshare order, or, when --top
 * leaves some out, those kept largest gap first (rank_gap.h); then the
 * summary items.  Returns a new array of mf_titem_t (g_free each item). */
GPtrArray *mf_tview_items(const mf_assoc_t *a, const mf_tview_t *v);

/* How many rows the text of view V draws for A and what is under it
 * (summary items of folded users are a note on their account's row, not
 * a row), counting no further than LIMIT.  Returns it (LIMIT + 1 at
 * most). */
guint mf_tview_rows(const mf_assoc_t *a, const mf_tview_t *v, guint limit);

/* The widest level of view V under A: the most items any account in it
 * has.  Returns it. */
guint mf_tview_widest(const mf_assoc_t *a, const mf_tview_t *v);

/* The label of summary item IT: "[25 users]", "+162 more accounts
 * (4050 users)", "[below: 2 accounts, 80 users]".  Returns a new string (g_free). */
char *mf_tview_sum_label(const mf_titem_t *it);

#endif
