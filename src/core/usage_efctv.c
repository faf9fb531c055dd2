/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <math.h>

#include "usage_efctv.h"

/* How strongly an off-target parent pulls its children (the spec's 5). */
#define MF_DO_PULL 5.0L

typedef void (*_efctv_fn)(mf_assoc_t *a);

static bool _takes_parent(mf_assoc_t *a);
static void _walk(mf_tree_t *tree, _efctv_fn fn);
static long double _siblings_usage(const mf_assoc_t *p);
static void _depth_oblivious(mf_assoc_t *a, long double siblings_usage);

/* Cases common to both algorithms; true when A is done. */
static bool _takes_parent(mf_assoc_t *a)
{
	if (!a->fs_parent) {                     /* root: Slurm sets 1 */
		a->usage_efctv = 1.0L;
		return true;
	}
	if (!a->fs_parent->fs_parent) {          /* fair-share child of root */
		a->usage_efctv = a->usage_norm;
		return true;
	}
	if (mf_assoc_is_parent_fs(a)) {
		a->usage_efctv = a->fs_parent->usage_efctv;
		return true;
	}
	return false;
}

void mf_usage_efctv_classic_one(mf_assoc_t *a)
{
	long double ua_child, ue_parent;

	if (_takes_parent(a))
		return;
	ua_child = a->usage_norm;
	ue_parent = a->fs_parent->usage_efctv;
	if (!a->level_shares)
		a->usage_efctv = ue_parent;
	else
		a->usage_efctv = ua_child + (ue_parent - ua_child) *
			((long double) a->shares_raw /
			 (long double) a->level_shares);
}

long double mf_depth_oblivious_k(long double ratio_p, long double ratio_l)
{
	long double x;

	if (ratio_p == 0.0L || ratio_l == 0.0L ||
	    logl(ratio_p) * logl(ratio_l) >= 0.0L)
		return 1.0L;
	x = MF_DO_PULL * logl(ratio_p);
	return 1.0L / (1.0L + x * x);
}

/* Sum of the usage_norm of P's fair-share children, FairShare=parent
 * ones excepted: the U_all_siblings of the spec. */
static long double _siblings_usage(const mf_assoc_t *p)
{
	long double sum = 0.0L;

	for (guint i = 0; i < p->fs_children->len; i++) {
		const mf_assoc_t *s = g_ptr_array_index(p->fs_children, i);

		if (!mf_assoc_is_parent_fs(s))
			sum += s->usage_norm;
	}
	return sum;
}

/* DEPTH_OBLIVIOUS for A, its siblings' usage being SIBLINGS_USAGE. */
static void _depth_oblivious(mf_assoc_t *a, long double siblings_usage)
{
	const mf_assoc_t *p;
	long double ratio_p, ratio_s, ratio_l, k;

	if (_takes_parent(a))
		return;
	p = a->fs_parent;
	if (a->shares_norm == 0.0 || p->shares_norm == 0.0 ||
	    p->usage_efctv == 0.0L || a->usage_norm == 0.0L) {
		a->usage_efctv = a->usage_norm;
		return;
	}
	ratio_p = p->usage_efctv / p->shares_norm;
	ratio_s = siblings_usage / p->shares_norm;
	ratio_l = (a->usage_norm / a->shares_norm) / ratio_s;
	k = mf_depth_oblivious_k(ratio_p, ratio_l);
	/* Slurm raises r_l to k in double precision; so do we, to agree
	 * with it to the last printed digit */
	a->usage_efctv = ratio_p * (long double) pow((double) ratio_l,
						     (double) k) *
		a->shares_norm;
}

void mf_usage_efctv_depth_oblivious_one(mf_assoc_t *a)
{
	_depth_oblivious(a, a->fs_parent ? _siblings_usage(a->fs_parent)
					 : 0.0L);
}

static void _walk(mf_tree_t *tree, _efctv_fn fn)
{
	/* display order visits every parent before its children */
	for (guint i = 0; i < tree->order->len; i++)
		fn(g_ptr_array_index(tree->order, i));
}

void mf_usage_efctv_classic(mf_tree_t *tree)
{
	_walk(tree, mf_usage_efctv_classic_one);
}

void mf_usage_efctv_depth_oblivious(mf_tree_t *tree)
{
	/* each parent's sibling sum once, not once per child: a level of n
	 * siblings costs n, not n^2 */
	for (guint i = 0; i < tree->order->len; i++) {
		mf_assoc_t *p = g_ptr_array_index(tree->order, i);
		long double sum;

		if (!p->fs_parent)
			_depth_oblivious(p, 0.0L);
		if (!p->fs_children || !p->fs_children->len)
			continue;
		sum = _siblings_usage(p);
		for (guint j = 0; j < p->fs_children->len; j++)
			_depth_oblivious(g_ptr_array_index(p->fs_children, j),
					 sum);
	}
}

