/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * job_keys: the keys of `scontrol -o show job` in the order scontrol
 * prints them, and the split of one job line into the values of the keys
 * mfprio reads: a free-text value (a name, a path, a comment) runs until
 * the key scontrol prints next, whatever it holds.
 */
#ifndef MFPRIO_JOB_KEYS_H
#define MFPRIO_JOB_KEYS_H

#include <stdint.h>

/* The fields a job line is read for: indexes into the values mf_jkeys_fields()
 * finds (_field_keys names them). */
enum {
	F_JOBID, F_ARRAYJOBID, F_ARRAYTASKID, F_USERID, F_ACCOUNT, F_QOS,
	F_PRIORITY, F_NICE, F_SITEFACTOR, F_JOBSTATE, F_REASON,
	F_DEPENDENCY, F_TIMELIMIT, F_SUBMITTIME, F_ELIGIBLETIME,
	F_ACCRUETIME, F_PARTITION, F_NUMNODES, F_NUMCPUS, F_TRES, F_REQTRES,
	F_ALLOCTRES, F_N
};

/* The key of each F_*, for messages. */
extern const char *const mf_jkeys_name[F_N];

/* Ready the tables of the keys (once; later calls do nothing).  Returns
 * nothing. */
void mf_jkeys_init(void);

/*
 * Split the line TEXT (modified: NULs written after keys and values; read
 * up to 8 bytes past its end, as line_reader.h allows) into VAL[F_*]
 * (pointers into TEXT, NULL when absent; the first occurrence of a key
 * wins) and LEN[F_*] (the length of each value found).  mf_jkeys_init()
 * first.  Returns nothing.
 */
void mf_jkeys_fields(char *text, char *val[F_N], uint32_t len[F_N]);

/* The first key scontrol prints on every job line that TEXT has no
 * "KEY=" word of.  Returns it, or NULL. */
const char *mf_jkeys_missing_always(const char *text);

#endif
