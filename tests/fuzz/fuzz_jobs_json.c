/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_jobs_json: the bytes as the JSON job dump (`scontrol show job
 * --json`), read as mfprio reads it: mf_jobs_each, which hands a file
 * starting with '{' to the JSON reader, each job handed back and freed.
 *
 * json-glib 1.6 itself leaks the first document of a file holding two
 * ('{"a":1}{"b":{}}', also with a plain program of its own):
 * jobs_json.supp suppresses leaks allocated inside libjson-glib, and run.sh
 * unwinds the full stack (fast_unwind_on_malloc=0) for this harness so
 * that the suppression can see the library's frames.
 */
#include "fuzz_util.h"

#include "jobs_input.h"
#include "jobs_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int _take(mf_job_line_t *job, void *arg)
{
	(*(unsigned *) arg)++;
	(void) mf_job_named(job, "100_7");
	mf_job_line_free(job);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	mf_error_t err = { { 0 } };
	char path[32];
	unsigned n = 0;
	int fd = fuzz_file(data, size, path);

	if (mf_jobs_each(path, _take, &n, &err) < 0 && !err.text[0])
		abort();
	fuzz_file_close(fd);
	return 0;
}
