/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <string.h>

#include <glib.h>

#include "dump_header.h"

const char *const mf_header_assoc[] = {
	"Account", "User", "ParentName,Par Name", "Share,Fairshare", NULL
};
const char *const mf_header_usage[] = {
	"Account", "User", "RawUsage,Raw Usage", NULL
};
const char *const mf_header_qos[] = { "Name", "Priority", NULL };
const char *const mf_header_assoc_prio[] = {
	"Account", "User", "Priority", NULL
};

/* FIELD is one of the ','-separated SPELLINGS. */
static bool _one_of(const char *field, const char *spellings)
{
	char **alts = g_strsplit(spellings, ",", -1);
	bool hit = false;

	for (int i = 0; alts[i] && !hit; i++)
		hit = !g_ascii_strcasecmp(field, alts[i]);
	g_strfreev(alts);
	return hit;
}

bool mf_dump_is_header(const char *line, const char *const *titles)
{
	char **f = g_strsplit(line, "|", -1);
	guint n = g_strv_length(f), want = g_strv_length((char **)titles);
	bool hit;

	if (n == want + 1 && !*g_strstrip(f[want]))
		n = want;
	hit = (n == want);
	for (guint i = 0; hit && i < want; i++)
		hit = _one_of(g_strstrip(f[i]), titles[i]);
	g_strfreev(f);
	return hit;
}

char *mf_dump_read(const char *path, gsize *size, mf_error_t *errp)
{
	char *text = NULL;
	GError *gerr = NULL;
	const char *nul;

	*size = 0;
	if (!g_file_get_contents(path, &text, size, &gerr)) {
		mf_errprintf(errp, "%s: %s", path, gerr->message);
		g_error_free(gerr);
		return NULL;
	}
	if ((nul = memchr(text, '\0', *size)) != NULL) {
		int line = 1;

		for (const char *c = text; c < nul; c++)
			line += (*c == '\n');
		g_free(text);
		mf_errprintf(errp, "%s:%d: a NUL byte: not a text dump", path,
			     line);
		return NULL;
	}
	return text;
}
