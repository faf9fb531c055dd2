/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <string.h>

#include <glib.h>

#include "priority_flags.h"

static const struct {
	const char *name;
	uint32_t bits;
} _flag_names[] = {
	{ "ACCRUE_ALWAYS", MF_FLAG_ACCRUE_ALWAYS },
	{ "CALCULATE_RUNNING", MF_FLAG_CALCULATE_RUNNING },
	{ "DEPTH_OBLIVIOUS", MF_FLAG_DEPTH_OBLIVIOUS },
	{ "NO_FAIR_TREE", MF_FLAG_NO_FAIR_TREE },
	{ "INCR_ONLY", MF_FLAG_INCR_ONLY },
	{ "MAX_TRES", MF_FLAG_MAX_TRES },
	{ "NO_NORMAL_ASSOC", MF_FLAG_NO_NORMAL_ASSOC },
	{ "NO_NORMAL_PART", MF_FLAG_NO_NORMAL_PART },
	{ "NO_NORMAL_QOS", MF_FLAG_NO_NORMAL_QOS },
	{ "NO_NORMAL_TRES", MF_FLAG_NO_NORMAL_TRES },
	{ "SMALL_RELATIVE_TO_TIME", MF_FLAG_SMALL_RELATIVE_TO_TIME },
	{ "NO_NORMAL_ALL", MF_FLAG_NO_NORMAL_ALL },
	{ "FAIR_TREE", 0 },     /* the default; accepted for old configs */
};

int mf_priority_flags_parse(const char *s, uint32_t *flags,
			    mf_error_t *errp)
{
	char **names;
	uint32_t out = 0;
	int rc = 0;

	if (!s) {
		*flags = 0;
		return 0;
	}
	names = g_strsplit(s, ",", -1);
	for (int i = 0; names[i]; i++) {
		char *n = g_strstrip(names[i]);
		size_t j;

		if (!*n)
			continue;
		for (j = 0; j < G_N_ELEMENTS(_flag_names); j++)
			if (!g_ascii_strcasecmp(n, _flag_names[j].name))
				break;
		if (j == G_N_ELEMENTS(_flag_names)) {
			if (!rc)
				rc = mf_errprintf(errp, "unknown PriorityFlags "
						  "flag '%s'", n);
		} else
			out |= _flag_names[j].bits;
	}
	g_strfreev(names);
	*flags = out;
	return rc;
}

char *mf_priority_flags_string(uint32_t flags)
{
	GString *s = g_string_new(NULL);

	/* the single flags only: NO_NORMAL_ALL prints as its four parts */
	for (size_t j = 0; j < G_N_ELEMENTS(_flag_names); j++) {
		uint32_t b = _flag_names[j].bits;

		if (!b || (b & (b - 1)) || !(flags & b))
			continue;
		if (s->len)
			g_string_append_c(s, ',');
		g_string_append(s, _flag_names[j].name);
	}
	return g_string_free(s, FALSE);
}

mf_fs_algo_t mf_priority_flags_algo(uint32_t flags)
{
	if (flags & MF_FLAG_DEPTH_OBLIVIOUS)
		return MF_FS_DEPTH_OBLIVIOUS;
	if (flags & MF_FLAG_NO_FAIR_TREE)
		return MF_FS_CLASSIC;
	return MF_FS_FAIR_TREE;
}
