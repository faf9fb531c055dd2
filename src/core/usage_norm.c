/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "usage_norm.h"

long double mf_usage_norm_of(long double usage_raw, long double root_raw)
{
	long double u;

	if (root_raw == 0.0L)
		return 0.0L;
	u = usage_raw / root_raw;
	return u > 1.0L ? 1.0L : u;
}

void mf_usage_norm(mf_tree_t *tree)
{
	long double root_raw = tree->root->usage_raw;

	/* each association on its own: memory order, not sshare's */
	for (guint i = 0; i < tree->input_order->len; i++) {
		mf_assoc_t *a = g_ptr_array_index(tree->input_order, i);

		if (a != tree->root)
			a->usage_norm = mf_usage_norm_of(a->usage_raw,
							 root_raw);
	}
}
