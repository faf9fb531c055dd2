/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * text_count: singular or plural for a count (text_count.h).
 */
#include <math.h>

#include "text_count.h"

const char *mf_text_n(double n, const char *one, const char *many)
{
	return fabs(n) >= 0.5 && fabs(n) < 1.5 ? one : many;
}
