/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jobs_input: the inputs of `mfprio priority` that an administrator dumps
 * from a running cluster.
 *
 *   jobs file:   scontrol -o show job      (one job per line)
 *   QOS file:    sacctmgr -P -n show qos format=Name,Priority
 *   assoc priority file (optional):
 *                sacctmgr -P -n show assoc format=Account,User,Priority
 *
 * A job line is a list of Key=Value words in the order scontrol prints
 * them.  Free-text values (JobName, Command, WorkDir, Comment, StdOut,
 * Features, ...) may hold spaces and '=': such a value runs until the key
 * scontrol prints next, so a job named "x QOS=high" keeps its own QOS
 * (a name ends at the UserId= that GroupId= follows: only a name holding
 * "UserId=... GroupId=..." itself is misread).  A
 * word without '=' continues the value before it; the first occurrence of
 * a key wins.  The keys read: JobId, ArrayJobId, ArrayTaskId, UserId,
 * Account, QOS, Priority, Nice, JobState, Reason, Dependency, TimeLimit,
 * SubmitTime, EligibleTime, AccrueTime, Partition, NumNodes, NumCPUs,
 * TRES (22.05; from 23.02 AllocTRES, else ReqTRES), and SiteFactor (not printed by scontrol; may be added by hand for
 * a what-if, default 0).  Times are scontrol's local
 * "YYYY-MM-DDTHH:MM:SS" (read in the local time zone, as scontrol wrote
 * them: run mfprio with the same TZ) or a number of seconds since the
 * epoch; "Unknown", "None" and "N/A" are 0.  Blank lines, lines starting
 * with '#' and scontrol's "No jobs in the system" are skipped.
 *
 * The file is read in one pass, a line at a time; the strings that repeat
 * from job to job (user, account, QOS, state, reason, partitions, TRES,
 * file) are interned: shared for the life of the process, never freed.
 *
 * A file whose first byte that is not white space is '{' is a JSON dump
 * (`squeue --json`, `scontrol show job --json`): read by jobs_json into
 * the same records.
 *
 * Every error names FILE:LINE and the field.
 */
#ifndef MFPRIO_JOBS_INPUT_H
#define MFPRIO_JOBS_INPUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include <time.h>

#include <glib.h>

#include "job_fields.h"
#include "job_line.h"
#include "job_values.h"
#include "mf_error.h"

/*
 * Read the jobs file PATH.  Returns a new array of mf_job_line_t* (free
 * with g_ptr_array_unref), or NULL with errp naming FILE:LINE and the
 * field for a line with no JobId, a field that is not a number or a time,
 * a UserId without a name, or a job listed twice.  A file with no job
 * (scontrol's "No jobs in the system") gives an empty array; a file with
 * no line at all (a dump that failed) is an error, and so is a last line
 * that ends without a newline and lacks a key scontrol prints on every
 * job line (a dump cut short in the middle of it).
 */
GPtrArray *mf_jobs_load(const char *path, mf_error_t *errp);

/*
 * Read the jobs file PATH as mf_jobs_load() does, one line at a time,
 * handing each job to FN (which owns it: mf_job_line_free()) with ARG.
 * A job FN is handed is kept nowhere else.  Returns 0; -1 with errp as
 * mf_jobs_load() says; or the non-zero value FN returned to stop (errp
 * untouched: FN reports).
 */
int mf_jobs_each(const char *path, mf_job_fn fn, void *arg,
		 mf_error_t *errp);

#endif
