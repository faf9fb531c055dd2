/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdio.h>
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
static const char *const _titles_cluster[] = {
	"Cluster", "Account", "User", "ParentName,Par Name", "Share,Fairshare",
	NULL
};
static const char *const _titles_cluster_part[] = {
	"Cluster", "Account", "User", "Partition", "ParentName,Par Name",
	"Share,Fairshare", NULL
};
static const char *const _titles_usage_part[] = {
	"Account", "User", "Partition", "RawUsage,Raw Usage", NULL
};

#define _NO_ASSOC "no association in it (an empty dump: sacctmgr show " \
	"assoc lists root's at least)"
#define _NO_USAGE "no usage row in it (an empty dump: sshare -a and " \
	"scontrol show assoc_mgr list root's at least)"

const mf_dump_kind_t mf_dump_assoc = {
	"the association dump",
	"sacctmgr -P -n show assoc format=Account,User,ParentName,Fairshare",
	mf_header_assoc, _NO_ASSOC,
};
const mf_dump_kind_t mf_dump_assoc_cluster = {
	"the association dump",
	"sacctmgr -P -n show assoc "
	"format=Cluster,Account,User,ParentName,Fairshare",
	_titles_cluster, _NO_ASSOC,
};
const mf_dump_kind_t mf_dump_assoc_cluster_part = {
	"the association dump",
	"sacctmgr -P -n show assoc "
	"format=Cluster,Account,User,Partition,ParentName,Fairshare",
	_titles_cluster_part, _NO_ASSOC,
};
const mf_dump_kind_t mf_dump_usage = {
	"sshare's usage dump", "sshare -a -P -n -o Account,User,RawUsage",
	mf_header_usage, _NO_USAGE,
};
const mf_dump_kind_t mf_dump_usage_part = {
	"sshare's usage dump",
	"sshare -a -P -n -o Account,User,Partition,RawUsage",
	_titles_usage_part, _NO_USAGE,
};
const mf_dump_kind_t mf_dump_qos = {
	"the QOS dump", "sacctmgr -P -n show qos format=Name,Priority",
	mf_header_qos,
	"no QOS in it (an empty dump: sacctmgr show qos lists normal at "
	"least)",
};
const mf_dump_kind_t mf_dump_assoc_prio = {
	"the association priority dump",
	"sacctmgr -P -n show assoc format=Account,User,Priority",
	mf_header_assoc_prio, _NO_ASSOC,
};
const mf_dump_kind_t mf_dump_jobs = {
	"the job dump", "scontrol -o show job", NULL,
	"no job in it, nor scontrol's \"No jobs in the system\" (an empty "
	"dump: scontrol -o show job prints that line on an idle cluster)",
};

/* The '|' dumps whose header a file may begin with. */
static const mf_dump_kind_t *const _bar_kinds[] = {
	&mf_dump_assoc, &mf_dump_assoc_cluster, &mf_dump_assoc_cluster_part,
	&mf_dump_usage, &mf_dump_usage_part, &mf_dump_qos,
	&mf_dump_assoc_prio, NULL
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

bool mf_dump_is_amgr(const char *line)
{
	const char *s = line + strspn(line, " \t");

	/* slurm.conf has ClusterName= too, but never with an Account= or a
	 * UserName= on the line */
	return !strchr(s, '|') &&
	       (g_str_has_prefix(s, "Current Association Manager") ||
		g_str_has_suffix(s, " Records") ||
		(g_str_has_prefix(s, "ClusterName=") &&
		 (strstr(s, " Account=") || strstr(s, " UserName="))));
}

/* What LINE is plainly a line of, other than of KIND ("a line of
 * `scontrol -o show job`"); a new string, or NULL. */
static char *_other_kind(const char *line, const mf_dump_kind_t *kind)
{
	const char *s = line + strspn(line, " \t");

	if (*s == '{')
		return g_strdup("JSON");
	if (kind != &mf_dump_jobs &&
	    (strstr(line, "JobId=") || !strcmp(s, "No jobs in the system")))
		return g_strdup("a line of `scontrol -o show job`");
	if (mf_dump_is_amgr(s))
		return g_strdup("a line of `scontrol show assoc_mgr`");
	if (kind != &mf_dump_jobs && !strchr(s, '|') && strchr(s, '='))
		return g_strdup("a slurm.conf line");
	for (int i = 0; _bar_kinds[i]; i++)
		if (strcmp(_bar_kinds[i]->name, kind->name) &&
		    mf_dump_is_header(line, _bar_kinds[i]->titles))
			return g_strdup_printf("the header of %s",
					       _bar_kinds[i]->name);
	return NULL;
}

int mf_dump_check_kind(const char *line, const mf_dump_kind_t *kind,
		       const char *path, int lineno, mf_error_t *errp)
{
	char *other = _other_kind(line, kind);

	if (!other)
		return 0;
	mf_errprintf(errp, "%s:%d: %s, not a line of `%s`", path, lineno,
		     other, kind->cmd);
	g_free(other);
	return -1;
}

bool mf_dump_ends_cut(const char *text, gsize size)
{
	return size && text[size - 1] != '\n';
}

void mf_dump_note_cut(mf_error_t *errp, const char *where)
{
	size_t len;

	if (!errp)
		return;
	len = strlen(errp->text);
	snprintf(errp->text + len, sizeof(errp->text) - len, "; the file "
		 "ends in the middle of %s: a dump cut short?", where);
}
