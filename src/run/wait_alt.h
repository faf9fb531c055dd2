/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * wait_alt: what the user of a waiting job (wait_job.h) could change
 * that would rank it higher: another QOS their association allows, from
 * their own associations (sacctmgr show assoc user=...) and the QOS
 * priorities (sacctmgr show qos), with the weighted QOS term it adds
 * (PriorityWeightQOS x Priority / the highest Priority) and the jobs
 * still ahead then in the job's first partition by sprio's rows.
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

#endif
