/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_live: the bytes as what `mfprio metrics --live` reads of the
 * cluster's commands (src/input/live_text.h), split at form feeds: the
 * first part as sshare's rows, the second as squeue's, the third as
 * sprio's, the whole as `scontrol show config`.  The rows read are
 * formatted as the metrics file would be (mf_metrics_format), so that
 * what the readers give is what the writer can take: an account never
 * NULL, a depth never negative, an error always said.
 */
#include "fuzz_util.h"

#include <math.h>

#include "live_text.h"
#include "metrics.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The pending rows and the chunk that keeps their strings. */
typedef struct {
	GArray *rows;            /* mf_metrics_pending_t */
	GStringChunk *names;
} rows_t;

/* mf_live_pending_fn: each job as one pending row of ARG (a rows_t); its
 * strings live only during the call, so they are copied. */
static void _job(const char *acct, const char *user, const char *part,
		 double prio, uint32_t job_id, time_t submit, void *arg)
{
	rows_t *p = arg;

	if (!user || !part)
		abort();
	mf_metrics_pending_t r = {
		.account = g_string_chunk_insert(p->names, acct ? acct : ""),
		.user = g_string_chunk_insert(p->names, user),
		.partition = g_string_chunk_insert(p->names, part),
		.jobs = 1, .prio_sum = prio, .prio_max = prio,
		.oldest_wait = NAN, .oldest_prio = prio };

	(void) job_id;
	(void) submit;
	g_array_append_val(p->rows, r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size), *part[3] = { "", "", "" };
	char **cut = g_strsplit(text, "\f", 4);
	GStringChunk *names = g_string_chunk_new(256);
	GArray *assocs = g_array_new(FALSE, TRUE, sizeof(mf_metrics_assoc_t));
	GArray *pending = g_array_new(FALSE, TRUE,
				      sizeof(mf_metrics_pending_t));
	mf_error_t err = { { 0 } };
	char *cluster = NULL;
	GString *out = g_string_new(NULL);

	for (int i = 0; i < 3 && cut[i]; i++)
		part[i] = cut[i];
	if (mf_live_sshare(part[0], names, assocs, &cluster, &err) < 0 &&
	    !err.text[0])
		abort();
	for (guint i = 0; i < assocs->len; i++) {
		const mf_metrics_assoc_t *a =
			&g_array_index(assocs, mf_metrics_assoc_t, i);

		if (!a->account || a->depth < 0)
			abort();
	}
	rows_t p = { .rows = pending, .names = names };

	mf_live_pending(part[1], part[2], 1767225600, _job, &p);

	mf_metrics_t m = {
		.cluster = cluster, .source = "live",
		.algorithm = mf_live_algorithm(text),
		.timestamp = 1767225600,
		.assocs = (const mf_metrics_assoc_t *) assocs->data,
		.n_assocs = assocs->len,
		.pending = (const mf_metrics_pending_t *) pending->data,
		.n_pending = pending->len,
	};
	mf_metrics_format(out, &m);
	g_string_free(out, TRUE);
	g_free(cluster);
	g_array_free(pending, TRUE);
	g_array_free(assocs, TRUE);
	g_string_chunk_free(names);
	g_strfreev(cut);
	free(text);
	return 0;
}
