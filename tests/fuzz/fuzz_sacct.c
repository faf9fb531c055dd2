/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_sacct: the bytes as the history `mfprio replay` reads, a
 * `sacct -a -P -n -X -o JobIDRaw,...,ReqTRES` dump (src/input/sacct_input.h),
 * read whole by mf_sacct_load.  Either it gives jobs whose indexes all
 * point into its tables, or an error with text.
 */
#include "fuzz_util.h"

#include "sacct_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	mf_error_t err = { { 0 } };
	char path[32];
	int fd = fuzz_file(data, size, path);
	mf_sacct_t *h = mf_sacct_load(path, &err);

	if (!h && !err.text[0])
		abort();
	for (guint i = 0; h && i < h->jobs->len; i++) {
		const mf_replay_job_t *j =
			&g_array_index(h->jobs, mf_replay_job_t, i);

		if (j->assoc >= h->acct->len || j->assoc >= h->user->len ||
		    j->part >= h->part->len || j->qos >= h->qos->len)
			abort();
	}
	if (h)
		mf_sacct_free(h);
	fuzz_file_close(fd);
	return 0;
}
