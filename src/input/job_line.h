/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * job_line: the record of one job that every reader of job dumps fills
 * (jobs_input for `scontrol -o show job`, jobs_json for the JSON dumps),
 * and the pool its repeated strings are interned in: one copy of each
 * user, account, QOS, state, reason, partition list, TRES and file name
 * for the life of the process, never freed.  The pool is not locked: one
 * thread at a time interns.
 */
#ifndef MFPRIO_JOB_LINE_H
#define MFPRIO_JOB_LINE_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include <string.h>
#include <time.h>

#include <glib.h>

typedef struct {
	uint32_t job_id;
	char *job_id_str;        /* the job's name as squeue gives it: an
				  * array's ArrayJobId_ArrayTaskId (100_3,
				  * 100_[4-9]; owned), else the JobId
				  * (in id_text) */
	char id_text[12];
	const char *user;        /* UserId=NAME(UID) -> NAME */
	uint32_t uid;
	const char *account;
	const char *qos;         /* NULL if "(null)" */
	uint32_t priority;       /* 0: held */
	int64_t nice;
	int64_t site_factor;
	const char *state;       /* JobState, e.g. PENDING */
	const char *reason;
	bool dependent;          /* Dependency set and not "(null)" */
	uint32_t time_limit;     /* minutes; 0xffffffff UNLIMITED;
				  * 0xfffffffe Partition_Limit */
	time_t submit_time;
	time_t eligible_time;
	time_t accrue_time;
	bool has_accrue_time;    /* the line had AccrueTime= */
	const char *const *partitions; /* Partition= split at ','
					* (NULL-ended) */
	uint32_t min_nodes;
	uint32_t min_cpus;
	uint32_t max_cpus;       /* 0: no range given */
	const char *tres;        /* TRES= as written, or NULL */
	const char *file;
	int line;
} mf_job_line_t;

/* What a reader hands each job to, with its ARG; FN owns JOB
 * (mf_job_line_free()).  Returns 0 to go on, non-zero to stop. */
typedef int (*mf_job_fn)(mf_job_line_t *job, void *arg);

/* Free JOB (NULL: nothing); its interned strings stay.  Returns nothing. */
void mf_job_line_free(mf_job_line_t *job);

/* A hash of the LEN bytes at S, eight at a time. */
static inline uint32_t mf_jobs_hash(const char *s, size_t len)
{
	const uint64_t k = 0x9E3779B97F4A7C15ULL;
	uint64_t h = (uint64_t)len * k, w;

	for (; len >= 8; s += 8, len -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * k;
		h ^= h >> 32;
	}
	w = 0;
	memcpy(&w, s, len);
	h = (h ^ w) * k;
	h ^= h >> 29;
	return (uint32_t)h;
}

/* S interned: one copy for the process, shared by every job record
 * (never freed).  Returns the copy. */
const char *mf_jobs_intern(const char *s);

/* The LEN bytes at S interned, as mf_jobs_intern() does.  Returns the
 * copy (NUL-terminated). */
const char *mf_jobs_intern_len(const char *s, size_t len);

/* PARTS ("a,b"; NULL, "" or "(null)": none) as an interned NULL-ended
 * list, the form of mf_job_line_t.partitions.  Returns the list. */
const char *const *mf_jobs_intern_parts(const char *parts);

#endif
