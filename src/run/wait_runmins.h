/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * wait_runmins: a job held by its association's GrpTRESRunMins limit
 * (AssocGrpCPURunMinutesLimit): the limit (sacctmgr show assoc of the
 * user), the TRES-minutes its running jobs have still to run (sshare's
 * TRESRunMins, and the user's own running jobs: CPUs x time left, from
 * squeue), what the job asks (CPUs x its time limit), and when the
 * running jobs' remaining minutes fall low enough for it to fit: Slurm
 * holds it while remaining + asked > limit.
 */
#ifndef MFPRIO_WAIT_RUNMINS_H
#define MFPRIO_WAIT_RUNMINS_H

#include "wait_job.h"

/*
 * Work out the GrpTRESRunMins limit of TRES L->tres (L->run_minutes set)
 * on the job's own association into L, and store it in W->limit when
 * the user can read the limit (sacctmgr shows their association with
 * it).  The lift time is given only for CPUs, when every running job
 * sshare counts is visible and has a time limit; else L->lift_seconds is
 * -1 (L->hidden says when jobs were not visible).  Returns nothing.
 */
void mf_wait_runmins(mf_wait_t *w, mf_wait_limit_t *l);

#endif
