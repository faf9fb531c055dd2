/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_usage_record: the bytes as the plugin's usage record
 * (StateSaveLocation/mfprio_usage, mf_usage_record_parse), twice: as they
 * are (a torn or changed file: refused by its sum), and as the body of a
 * record whose sum line is computed here, so that every line reader is
 * reached.  A record read is written again and must read back the same.
 */
#include "fuzz_util.h"

#include <glib.h>

#include "usage_record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int _same(const GArray *a, const GArray *b, uint32_t cnt)
{
	if (a->len != b->len)
		return 0;
	for (guint i = 0; i < a->len; i++) {
		const mf_rec_entry_t *x = &g_array_index(a, mf_rec_entry_t, i);
		const mf_rec_entry_t *y = &g_array_index(b, mf_rec_entry_t, i);

		if (x->id != y->id || x->raw != y->raw || x->wall != y->wall)
			return 0;
		for (uint32_t k = 0; k < cnt; k++)
			if (x->tres[k] != y->tres[k])
				return 0;
	}
	return 1;
}

/* Read TEXT; when it is a record, write it again and read that back. */
static void _try(const char *text, size_t len)
{
	mf_usage_record_t r, again;
	mf_error_t err = { { 0 } };
	size_t n;
	char *out;

	if (mf_usage_record_parse(text, len, &r, &err) < 0) {
		if (!err.text[0])
			abort();        /* a refusal always says why */
		return;
	}
	out = mf_usage_record_format(&r, &n);
	if (mf_usage_record_parse(out, n, &again, &err) < 0 ||
	    strcmp(r.cluster, again.cluster) || r.time != again.time ||
	    r.tres_cnt != again.tres_cnt || r.assoc_hash != again.assoc_hash ||
	    !_same(r.assocs, again.assocs, r.tres_cnt) ||
	    !_same(r.qos, again.qos, r.tres_cnt))
		abort();
	mf_usage_record_clear(&again);
	mf_usage_record_clear(&r);
	g_free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *sum, *summed;

	_try((const char *) data, size);
	sum = g_compute_checksum_for_data(G_CHECKSUM_SHA256, data, size);
	summed = g_malloc(size + 80);
	memcpy(summed, data, size);
	size += (size_t) snprintf(summed + size, 80, "sum %s\n", sum);
	_try(summed, size);
	g_free(summed);
	g_free(sum);
	return 0;
}
