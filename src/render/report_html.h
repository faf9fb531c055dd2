/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_html: the page of `mfprio report --html`: one self-contained
 * HTML file (inline CSS and JavaScript, report.css and report.js turned
 * into C strings at build time, report_assets.h) that embeds, as JSON,
 * what `mfprio fairshare --json`, `mfprio priority --json` (the rows of
 * the queue heads) and `mfprio check --json` print, plus the queue's
 * summary (queue_top.h), the accounts' waits (queue_wait.h) and, with
 * --history, the accounts' figures over time (history_json.h; null
 * without: the page then says where a history comes from).  The
 * page lays out and filters those figures; the one it derives is each
 * association's gap, its effective usage less its normalized shares
 * (both fairshare --json's), by which it ranks the boxes of a crowded
 * level and the summary panel.
 *
 * Embedding: each JSON text goes in a <script type="application/json">
 * element with every '<' written as \u003c, so that no text of a name
 * can end the element; the page reads them with JSON.parse.
 */
#ifndef MFPRIO_REPORT_HTML_H
#define MFPRIO_REPORT_HTML_H

#include <stdio.h>
#include <time.h>

#include "queue_top.h"
#include "queue_wait.h"

/* What the page shows (texts borrowed, NUL-terminated). */
typedef struct {
	const char *cluster;         /* ClusterName, or NULL */
	time_t taken;                /* the snapshot's time */
	const char *source;          /* "snapshot DIR", "live", ... */
	const char *fairshare_json;  /* mfprio fairshare --json */
	const char *priority_json;   /* mfprio priority --json, heads only */
	const char *check_json;      /* mfprio check --json */
	const char *queue_json;      /* mf_qtop_json() */
	const char *waits_json;      /* mf_qwait_json() */
	const char *history_json;    /* mf_history_json(), or NULL: no
				      * --history */
	const char *history_dir;     /* --history HDIR, or NULL */
} mf_report_t;

/* Write the queue summary of Q as one JSON object to OUT: top_n, and per
 * partition its name, tier, pending rows, the job ids of its head in
 * rank order and its accounts' rows and best ranks.  Returns nothing. */
void mf_qtop_json(FILE *out, const mf_qtop_t *q);

/* Write the accounts' waits W as JSON to OUT: [[account, jobs, median
 * wait, longest wait], ...] (seconds), W's order, at most MAX entries
 * (0: all).  Returns nothing. */
void mf_qwait_json(FILE *out, const GArray *w, guint max);

/* Write R's page to OUT.  Returns 0, or -1 if a write failed. */
int mf_report_html(FILE *out, const mf_report_t *r);

#endif
