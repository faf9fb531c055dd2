/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * wait_alt: what the user of a waiting job (wait_job.h) could change
 * that would rank it higher: another QOS their association allows, from
 * their own associations (sacctmgr show assoc user=...) and the QOS
 * priorities (sacctmgr show qos), with the weighted QOS term it adds
 * (PriorityWeightQOS x Priority / the highest Priority) and the jobs
 * still ahead then in the job's first partition by sprio's rows; or
 * another partition where fewer jobs are ahead.
 */
#ifndef MFPRIO_WAIT_ALT_H
#define MFPRIO_WAIT_ALT_H

#include "wait_job.h"

/*
 * Fill W->qos_alts (new; highest gain first) and W->qos_unknown from
 * W's dump: only QOS whose term is at least 1 more than the job's own.
 * Returns nothing.
 */
void mf_wait_qos_alts(mf_wait_t *w);

/*
 * Fill W->part_alts (new; fewest ahead first): the partitions the job is
 * not in that are UP and that its account, QOS and the user's groups may
 * use (scontrol show partition: Allow/Deny Accounts and Qos,
 * AllowGroups), where fewer of sprio's rows are ahead of the job's
 * priority there (its own, less its partition term, plus that
 * partition's: PriorityWeightPartition x PriorityJobFactor / the
 * highest) than in any of its own.  Nothing under PrivateData=jobs.
 * Returns nothing.
 */
void mf_wait_part_alts(mf_wait_t *w);

#endif
