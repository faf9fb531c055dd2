/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * why_live: the dumps of `mfprio why JOBID` (wait_dump.h) taken from the
 * live cluster SLURM_CONF names, by the user's own Slurm commands, each
 * run once from PATH by argv (no shell, no privilege):
 *   scontrol -o show job JOBID, scontrol show config,
 *   sprio -h -o MF_WAIT_SPRIO_FORMAT, sshare -P -n -o MF_WAIT_SSHARE_FIELDS
 * and the time they were taken.
 */
#ifndef MFPRIO_WHY_LIVE_H
#define MFPRIO_WHY_LIVE_H

/*
 * Write the dumps for job JOB_ID into the directory DIR (existing).
 * Returns an exit status (exit_status.h): MF_EXIT_OK, or MF_EXIT_INPUT
 * after saying which command failed and what it said (for scontrol's
 * "Invalid job id": that the job does not exist, or is not the user's
 * under PrivateData).
 */
int mf_why_live_dump(const char *dir, const char *job_id);

#endif
