/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_state_files: the bytes as the plugin's two small state files:
 * priority_last_decay_ran (mf_state_decode; sixteen bytes decode, encode
 * back to the same bytes) and mfprio_charged_jobs, line by line
 * (mf_charged_line; a line read says a job id and a positive end time,
 * and written again reads back the same).
 */
#include "fuzz_util.h"

#include "state_files.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	time_t ran, reset;
	const char *p = (const char *) data, *end = p + size;

	if (mf_state_decode(data, size, &ran, &reset) == 0) {
		unsigned char back[MF_STATE_BYTES];

		mf_state_encode(ran, reset, back);
		if (size != MF_STATE_BYTES || memcmp(back, data, size))
			abort();
	} else if (size == MF_STATE_BYTES || ran || reset) {
		abort();
	}
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t) (end - p));
		size_t len = nl ? (size_t) (nl - p) + 1 : (size_t) (end - p);
		uint32_t id, id2;
		time_t t, t2;
		char again[64];
		int n;

		if (mf_charged_line(p, len, &id, &t) == 0) {
			if (!id || t <= 0)
				abort();
			n = snprintf(again, sizeof(again), "%u %lld\n", id,
				     (long long) t);
			if (mf_charged_line(again, (size_t) n, &id2, &t2) ||
			    id2 != id || t2 != t)
				abort();
		}
		p += len;
	}
	return 0;
}
