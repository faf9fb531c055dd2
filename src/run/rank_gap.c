/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rank_gap: associations ranked by the gap between their usage and their
 * shares (rank_gap.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rank_gap.h"

static double _nan0(double v)
{
	return isnan(v) ? 0 : v;
}

double mf_rank_gap(const mf_assoc_t *a)
{
	return _nan0((double) a->usage_efctv) - _nan0(a->shares_norm);
}

/* strcmp with NULL first. */
static int _strcmp0(const char *x, const char *y)
{
	if (!x || !y)
		return (x != NULL) - (y != NULL);
	return strcmp(x, y);
}

int mf_rank_gap_cmp(const mf_assoc_t *a, const mf_assoc_t *b)
{
	double ga = fabs(mf_rank_gap(a)), gb = fabs(mf_rank_gap(b));
	int c;

	if (ga != gb)
		return ga > gb ? -1 : 1;
	if ((c = strcmp(a->user ? a->user : a->acct,
			b->user ? b->user : b->acct)))
		return c;
	if ((c = strcmp(a->acct, b->acct)))
		return c;
	return _strcmp0(a->partition, b->partition);
}

static int _cmp(const void *x, const void *y)
{
	return mf_rank_gap_cmp(*(const mf_assoc_t *const *) x,
			       *(const mf_assoc_t *const *) y);
}

void mf_rank_gap_sort(const mf_assoc_t **v, size_t n)
{
	if (n > 1)
		qsort(v, n, sizeof(*v), _cmp);
}
