/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jobs_json: the job dumps Slurm prints as JSON, read into the same
 * records (mf_job_line_t) as the one-line `scontrol -o show job` reader.
 *
 *   squeue --json            (22.05 on: openapi v0.0.37/v0.0.38 shapes)
 *   scontrol show job --json (23.02 on; 22.05's scontrol has no --json)
 *
 * Both print an object whose "jobs" member is an array of job objects.
 * The members read: job_id, array_job_id, array_task_id,
 * array_task_string, user_name, user_id, account, qos, priority, nice,
 * job_state, state_reason, dependency, time_limit, submit_time,
 * eligible_time, accrue_time, partition, node_count, cpus, max_cpus,
 * tres_alloc_str, tres_req_str, and site_factor (ours, as SiteFactor= in
 * the one-line form).  A number may be written plain, as null (not set),
 * or as the {"set":..,"infinite":..,"number":..} object of the
 * data_parser releases (23.02 on); job_state as a string or an array of
 * flags (the first is the state).  A time of 0 is "Unknown".
 *
 * What they mean is what the one-line reader gives: an array record that
 * still holds pending tasks is named 100_[4-9%2], a task 100_3; a job
 * with priority 0 is held; time_limit not set or infinite is UNLIMITED.
 *
 * json-glib's JsonParser reads the file (mapped: memory about its size);
 * each job is made a record and taken out of the tree as soon as it is
 * parsed, so the tree holds one job at a time.  About 0.5 ms a job (a
 * 25.11 job is 8 KB of JSON): fine for tens of thousands of jobs; the
 * one-line form stays the fast path for a million.
 *
 * 22.05 and 23.02 print a negative nice as 2^32 + nice: read back as the
 * negative number.
 *
 * Every error names the file and the line: of the parse error, or of the
 * end of the job object at fault.
 */
#ifndef MFPRIO_JOBS_JSON_H
#define MFPRIO_JOBS_JSON_H

#include <stdbool.h>

#include "job_line.h"
#include "mf_error.h"

/* Whether the file PATH looks like JSON: its first byte that is not
 * white space is '{'.  False when it cannot be read (the reader then
 * says why). */
bool mf_jobs_is_json(const char *path);

/*
 * Read the JSON job dump PATH, handing each job to FN (which owns it:
 * mf_job_line_free()) with ARG, in the order of the file, as it is
 * parsed (an error further on comes after FN had the jobs before it).
 * Returns 0; -1
 * with errp naming PATH and the line for text that is not JSON, a
 * document without a "jobs" array, a job without job_id, a member of the
 * wrong type, or a job listed twice; or the non-zero value FN returned to
 * stop (errp untouched: FN reports).  A "jobs" array that is empty gives
 * no job.
 */
int mf_jobs_json_each(const char *path, mf_job_fn fn, void *arg,
		      mf_error_t *errp);

#endif
