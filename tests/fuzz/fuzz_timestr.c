/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_timestr: the bytes as a Slurm duration (mf_timestr_secs,
 * mf_timestr_mins: "2-03:04:05", "UNLIMITED"), a point in time
 * (mf_time_point: "now+2hours", "2023-11-14T22:13:20", "noon") and a time
 * as scontrol prints it (mf_parse_slurm_time).
 */
#include "fuzz_util.h"

#include "timestr.h"
#include "jobs_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_text(data, size);
	mf_error_t err = { { 0 } };
	uint32_t secs, mins;
	bool unlimited;
	time_t t;

	if (mf_timestr_secs(s, &secs, &unlimited, &err) < 0 && !err.text[0])
		abort();
	err.text[0] = '\0';
	if (mf_timestr_mins(s, &mins, &err) < 0 && !err.text[0])
		abort();
	err.text[0] = '\0';
	if (mf_time_point(s, 1700000000, &t, &err) < 0 && !err.text[0])
		abort();
	(void) mf_parse_slurm_time(s, &t);
	free(s);
	return 0;
}
