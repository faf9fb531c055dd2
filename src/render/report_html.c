/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <string.h>

#include "json_out.h"
#include "markup.h"
#include "report_assets.h"
#include "report_html.h"


/* JSON text JSON in a data element of id ID ('<' as \u003c). */
static void _data(FILE *out, const char *id, const char *json)
{
	fprintf(out, "<script type=\"application/json\" id=\"%s\">", id);
	for (const char *p = json ? json : "null"; *p; p++) {
		const char *lt = strchr(p, '<');
		size_t n = lt ? (size_t)(lt - p) : strlen(p);

		fwrite(p, 1, n, out);
		p += n;
		if (!*p)
			break;
		fputs("\\u003c", out);
	}
	fputs("</script>\n", out);
}

/* The lines of an asset. */
static void _asset(FILE *out, const char *const *lines)
{
	for (; *lines; lines++)
		fputs(*lines, out);
}

void mf_qwait_json(FILE *out, const GArray *w, guint max)
{
	mf_json_t j;

	mf_json_init(&j, out);
	mf_json_begin_array(&j, NULL);
	for (guint i = 0; i < w->len && (!max || i < max); i++) {
		const mf_qwait_acct_t *a =
			&g_array_index(w, mf_qwait_acct_t, i);

		mf_json_begin_array(&j, NULL);
		mf_json_string(&j, NULL, a->account);
		mf_json_uint(&j, NULL, a->jobs);
		mf_json_uint(&j, NULL, (guint64)a->median);
		mf_json_uint(&j, NULL, (guint64)a->longest);
		mf_json_end_array(&j);
	}
	mf_json_end_array(&j);
	mf_json_finish(&j);
}

void mf_qtop_json(FILE *out, const mf_qtop_t *q)
{
	mf_json_t j;

	mf_json_init(&j, out);
	mf_json_begin_object(&j, NULL);
	mf_json_uint(&j, "top_n", q->top_n);
	mf_json_begin_array(&j, "partitions");
	for (guint i = 0; i < q->parts->len; i++) {
		const mf_qtop_part_t *p =
			&g_array_index(q->parts, mf_qtop_part_t, i);

		mf_json_begin_object(&j, NULL);
		mf_json_string(&j, "name", p->part->name);
		mf_json_uint(&j, "tier", p->part->priority_tier);
		mf_json_uint(&j, "rows", p->rows);
		mf_json_begin_array(&j, "ranked");
		for (guint k = 0; k < p->top->len; k++) {
			const mf_prun_row_t *row = p->top->pdata[k];

			mf_json_uint(&j, NULL, row->job->job.job_id);
		}
		mf_json_end_array(&j);
		mf_json_begin_array(&j, "accounts");
		for (guint k = 0; k < p->accounts->len; k++) {
			const mf_qtop_acct_t *a = &g_array_index(
				p->accounts, mf_qtop_acct_t, k);

			mf_json_begin_array(&j, NULL);
			mf_json_string(&j, NULL, a->account);
			mf_json_uint(&j, NULL, a->rows);
			mf_json_uint(&j, NULL, a->best_rank);
			mf_json_end_array(&j);
		}
		mf_json_end_array(&j);
		mf_json_end_object(&j);
	}
	mf_json_end_array(&j);
	mf_json_end_object(&j);
	mf_json_finish(&j);
}

int mf_report_html(FILE *out, const mf_report_t *r)
{
	char when[64];
	struct tm tm;

	gmtime_r(&r->taken, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	      "<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width\">\n"
	      "<link rel=\"icon\" href=\"data:,\">\n<title>", out);
	mf_markup_text(out, r->cluster ? r->cluster : "cluster");
	fprintf(out, ": fair-share and queue at %s</title>\n<style>\n", when);
	_asset(out, mf_report_css);
	fputs("</style>\n</head>\n<body>\n<header><h1 id=\"title\">", out);
	mf_markup_text(out, r->cluster ? r->cluster : "cluster");
	fprintf(out, ": fair-share and queue at %s</h1>\n"
		"<p class=\"source\">From ", when);
	mf_markup_text(out, r->source);
	fputs(", by mfprio report: the figures of <code>mfprio fairshare "
	      "--json</code>, <code>mfprio priority --json</code> and "
	      "<code>mfprio check --json</code>", out);
	if (r->history_dir) {
		fputs("; history from the snapshots in ", out);
		mf_markup_text(out, r->history_dir);
	}
	fputs(".</p></header>\n"
	      "<main id=\"app\"><noscript>This page needs JavaScript.</noscript>"
	      "</main>\n", out);
	_data(out, "data-fairshare", r->fairshare_json);
	_data(out, "data-priority", r->priority_json);
	_data(out, "data-check", r->check_json);
	_data(out, "data-queue", r->queue_json);
	_data(out, "data-waits", r->waits_json);
	_data(out, "data-history", r->history_json);
	fputs("<script>\n", out);
	_asset(out, mf_report_rank_js);
	_asset(out, mf_report_history_js);
	_asset(out, mf_report_js);
	fputs("</script>\n</body>\n</html>\n", out);
	return ferror(out) ? -1 : 0;
}
