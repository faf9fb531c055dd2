/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * text_time: durations and points in time in sentences (text_time.h).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include <glib.h>

#include "text_time.h"

char *mf_text_span(double s)
{
	GString *g = g_string_new(NULL);
	uint64_t v = (uint64_t) ceil(s);

	if (v < 60) {
		g_string_append_printf(g, "%" G_GUINT64_FORMAT " s", v);
		return g_string_free(g, FALSE);
	}
	v = (v + 59) / 60;
	if (v >= 1440)
		g_string_append_printf(g, "%" G_GUINT64_FORMAT " d ",
				       v / 1440);
	if (v >= 60)
		g_string_append_printf(g, "%" G_GUINT64_FORMAT " h ",
				       v / 60 % 24);
	g_string_append_printf(g, "%" G_GUINT64_FORMAT " min", v % 60);
	return g_string_free(g, FALSE);
}

void mf_text_time(time_t t, char buf[32])
{
	struct tm tm;

	if (!localtime_r(&t, &tm) ||
	    !strftime(buf, 32, "%Y-%m-%dT%H:%M:%S", &tm))
		snprintf(buf, 32, "%lld", (long long) t);
}
