/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * user_page: one user's page (user_page.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "markup.h"
#include "text_time.h"
#include "user_page.h"
#include "wait_out.h"

static const char _css[] =
"body{font:15px/1.45 system-ui,sans-serif;margin:1.5em auto;"
"max-width:62em;padding:0 1em;color:#1d2330}"
".banner{background:#fff1c2;border:1px solid #c99a00;padding:.5em .8em;"
"margin:0 0 1em;font-weight:600}"
".note{background:#eef3fb;border-left:4px solid #4d7cc9;"
"padding:.4em .8em}"
"table{border-collapse:collapse;margin:.5em 0 1.2em}"
"th,td{border-bottom:1px solid #d8dce4;padding:.25em .7em;"
"text-align:left}td.n{text-align:right;font-variant-numeric:"
"tabular-nums}pre.why{background:#f6f7f9;padding:.6em .8em;"
"overflow-x:auto;white-space:pre-wrap}";

/* The job's name as squeue gives it. */
static const char *_id(const mf_user_job_t *u)
{
	const mf_job_line_t *j = u->d.job;

	return j->job_id_str ? j->job_id_str : j->id_text;
}

/* Whether PrivateData names any of what it can hide. */
static bool _private(const char *pd)
{
	return pd && (strstr(pd, "usage") || strstr(pd, "jobs") ||
		      strstr(pd, "users"));
}

/* The first line of an administrator's page, or the note of a plain
 * user's. */
static void _privacy(FILE *out, const mf_user_place_t *p)
{
	if (!_private(p->private_data))
		return;
	if (p->admin) {
		fputs("<p class=\"banner\" id=\"admin-banner\">Made by an "
		      "administrator: this page shows every user's usage "
		      "(PrivateData=", out);
		mf_markup_text(out, p->private_data);
		fputs(" hides it from users; ", out);
		mf_markup_text(out, p->user);
		fputs(" would see less).</p>\n", out);
		return;
	}
	fputs("<p class=\"note\" id=\"private\">This site has PrivateData=",
	      out);
	mf_markup_text(out, p->private_data);
	fputs(": what slurmctld hides from the user who took the dumps is "
	      "absent from this page", out);
	if (strstr(p->private_data, "jobs"))
		fputs("; other users' jobs are not seen, so a rank counts "
		      "only the jobs shown", out);
	if (strstr(p->private_data, "usage"))
		fputs("; other users' usage is not seen, so an account's "
		      "siblings may be missing", out);
	if (strstr(p->private_data, "users"))
		fputs("; other users' associations are not seen", out);
	fputs(".</p>\n", out);
}

/* A section's heading TITLE, then NONE when it has no ROWS.  Returns
 * whether it has rows. */
static bool _heading(FILE *out, const char *title, guint rows,
		     const char *none)
{
	fprintf(out, "<h2>%s</h2>\n", title);
	if (!rows)
		fprintf(out, "<p class=\"none\">%s</p>\n", none);
	return rows > 0;
}

/* One row per job and partition. */
static void _jobs(FILE *out, const mf_user_place_t *p)
{
	if (!_heading(out, "Pending jobs", p->jobs->len, "No pending job."))
		return;
	fputs("<table id=\"jobs\"><thead><tr><th>Job</th><th>Partition</th>"
	      "<th>Rank</th><th>Priority</th><th>What holds it</th>"
	      "</tr></thead><tbody>\n", out);
	for (guint i = 0; i < p->jobs->len; i++) {
		const mf_user_job_t *u = p->jobs->pdata[i];
		const GArray *pl = u->w.places;
		guint n = pl ? pl->len : 0;

		for (guint k = 0; k < (n ? n : 1); k++) {
			const mf_wait_place_t *pc = n ?
				&g_array_index(pl, mf_wait_place_t, k) : NULL;

			fputs("<tr data-job=\"", out);
			mf_markup_text(out, _id(u));
			fputs("\" data-partition=\"", out);
			mf_markup_text(out, pc ? pc->mine->partition : "");
			if (pc)
				fprintf(out, "\" data-rank=\"%u\" data-of=\"%u",
					pc->ahead + 1, pc->rows);
			fputs("\"><td><a href=\"#why-", out);
			mf_markup_text(out, _id(u));
			fputs("\">", out);
			mf_markup_text(out, _id(u));
			fputs("</a></td><td>", out);
			mf_markup_text(out, pc ? pc->mine->partition : "-");
			if (pc)
				fprintf(out, "</td><td class=\"n\">%u of %u"
					"</td><td class=\"n\">%.0f</td><td>",
					pc->ahead + 1, pc->rows,
					pc->mine->priority);
			else
				fputs("</td><td>not in sprio</td><td></td>"
				      "<td>", out);
			mf_markup_text(out, mf_hold_name(u->w.hold));
			fputs(" (Reason=", out);
			mf_markup_text(out, u->d.job->reason);
			fputs(")</td></tr>\n", out);
		}
	}
	fputs("</tbody></table>\n", out);
}

/* Each job's `mfprio why JOBID` text. */
static void _whys(FILE *out, const mf_user_place_t *p)
{
	for (guint i = 0; i < p->jobs->len; i++) {
		const mf_user_job_t *u = p->jobs->pdata[i];
		char *text = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&text, &len);

		if (m) {
			mf_wait_print_text(m, &u->w);
			fclose(m);
		}
		fputs("<section class=\"why\" id=\"why-", out);
		mf_markup_text(out, _id(u));
		fputs("\"><h3>Job ", out);
		mf_markup_text(out, _id(u));
		fputs(": mfprio why ", out);
		mf_markup_text(out, _id(u));
		fputs("</h3>\n<pre class=\"why\">", out);
		/* markup writes a newline as '?': line by line */
		for (char *l = text, *nl; l && *l; l = nl ? nl + 1 : NULL) {
			nl = strchr(l, '\n');
			if (nl)
				*nl = '\0';
			mf_markup_text(out, l);
			fputc('\n', out);
		}
		fputs("</pre></section>\n", out);
		free(text);
	}
}

/* The user's associations and their accounts' places. */
static void _accts(FILE *out, const mf_user_place_t *p)
{
	if (!_heading(out, "Accounts", p->accts->len,
		      "No association of this user in sshare."))
		return;
	fputs("<p>The rank is among the account's siblings under the same "
	      "parent, by LevelFS (Fair Tree serves the highest first); the "
	      "gap is the account's effective usage less its normalized "
	      "shares (above 0: over its share).</p>\n"
	      "<table id=\"accounts\"><thead><tr><th>Account</th>"
	      "<th>Normalized shares</th><th>Raw usage</th>"
	      "<th>Effective usage</th><th>LevelFS</th><th>Gap</th>"
	      "<th>Rank among siblings</th><th>User's fair-share</th>"
	      "</tr></thead><tbody>\n", out);
	for (guint i = 0; i < p->accts->len; i++) {
		const mf_user_acct_t *a = &g_array_index(p->accts,
							 mf_user_acct_t, i);
		const mf_wait_sshare_t *ac = a->account;

		fputs("<tr data-account=\"", out);
		mf_markup_text(out, a->assoc->account);
		fputs("\"><td>", out);
		mf_markup_text(out, a->assoc->account);
		if (ac)
			fprintf(out, "</td><td class=\"n\">%.6f</td>"
				"<td class=\"n\">%.0f</td><td class=\"n\">"
				"%.6f</td><td class=\"n\">%.6f</td>"
				"<td class=\"n\">%+.6f</td><td class=\"n\" "
				"data-rank=\"%u\" data-of=\"%u\">%u of %u",
				ac->norm_shares, ac->raw_usage, ac->eff_usage,
				ac->level_fs, a->gap, a->rank, a->siblings,
				a->rank, a->siblings);
		else
			fputs("</td><td colspan=\"6\">account row not shown",
			      out);
		fprintf(out, "</td><td class=\"n\">%.6f</td></tr>\n",
			a->assoc->fairshare);
	}
	fputs("</tbody></table>\n", out);
}

int mf_user_page_html(FILE *out, const mf_user_place_t *p,
		      const char *source)
{
	char when[32];

	mf_text_time(p->base.now, when);
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta "
	      "charset=\"utf-8\">\n<title>mfprio: ", out);
	mf_markup_text(out, p->user);
	fprintf(out, "'s place</title>\n<style>%s</style></head>\n<body>\n",
		_css);
	_privacy(out, p);
	fputs("<h1>", out);
	mf_markup_text(out, p->user);
	fputs("'s place in the queue</h1>\n<p>From ", out);
	mf_markup_text(out, source);
	fputs(", taken ", out);
	mf_markup_text(out, when);
	fputs(".</p>\n", out);
	_jobs(out, p);
	_accts(out, p);
	_whys(out, p);
	fputs("</body></html>\n", out);
	return ferror(out) ? -1 : 0;
}
