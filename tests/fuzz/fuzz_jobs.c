/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_jobs: the bytes as the jobs dump, `scontrol -o show job` (one job a
 * line: JobId=... UserId=NAME(UID) ... TRES=...), read whole by
 * mf_jobs_load, and each line alone by mf_job_line_parse with the job
 * naming (mf_job_named) tried on what it gave.  A JSON dump is left to
 * fuzz_jobs_json.
 */
#include "fuzz_util.h"

#include "jobs_input.h"
#include "jobs_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	mf_error_t err = { { 0 } };
	char path[32];
	int fd = fuzz_file(data, size, path);

	/* a file starting with '{' goes to the JSON reader: fuzz_jobs_json */
	if (mf_jobs_is_json(path)) {
		fuzz_file_close(fd);
		return 0;
	}
	GPtrArray *jobs = mf_jobs_load(path, &err);

	if (!jobs && !err.text[0])
		abort();
	for (guint i = 0; jobs && i < jobs->len; i++) {
		const mf_job_line_t *j = g_ptr_array_index(jobs, i);

		(void) mf_job_named(j, "100_7");
		(void) mf_job_named(j, j->id_text);
	}
	if (jobs)
		g_ptr_array_unref(jobs);
	fuzz_file_close(fd);

	/* the first line alone, through the parser the tests use */
	char *text = fuzz_text(data, size);
	char *nl = strchr(text, '\n');

	if (nl)
		*nl = '\0';
	err.text[0] = '\0';
	mf_job_line_t *job = mf_job_line_parse(text, "fuzz-jobs", 1, &err);

	if (job) {
		(void) mf_job_named(job, "1_[2-3%1]");
		mf_job_line_free(job);
	}
	time_t t;

	(void) mf_parse_slurm_time(text, &t);
	free(text);
	return 0;
}
