/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <math.h>

#include "fs_factor.h"

double mf_fs_factor(long double usage_efctv, long double shares_norm,
		    uint16_t damp)
{
	if (isnan(usage_efctv) || !(shares_norm > 0.0L))
		return 0.0;
	if (!damp)
		damp = 1;
	return pow(2.0, -(double) ((usage_efctv / shares_norm) / damp));
}
