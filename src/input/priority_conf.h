/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * priority_conf: the typed settings the multifactor plugin reads from
 * slurm.conf, with Slurm 22.05's defaults, and the cluster's size from its
 * NodeName and PartitionName lines.
 *
 *   PriorityWeightAge, ...Assoc, ...Fairshare, ...JobSize, ...Partition,
 *   ...QOS        unsigned 32-bit (0x.., 0.., a K suffix x1024, UNLIMITED
 *                 = 4294967295, as Slurm reads them); default 0
 *   PriorityWeightTRES   TYPE=WEIGHT[unit],... (tres.h); default none
 *   PriorityMaxAge, PriorityDecayHalfLife   time strings; default 7-0
 *   PriorityCalcPeriod   time string, at least 1 minute; default 5
 *   PriorityUsageResetPeriod   NONE ... YEARLY; default NONE
 *   PriorityFavorSmall   YES/NO (also TRUE/FALSE/1/0/UP/DOWN); default NO
 *   PriorityFlags        default none (Fair Tree)
 *   FairShareDampeningFactor   1..65535; default 1
 *   PriorityType, PrioritySiteFactorPlugin, AccountingStorageType,
 *   AccountingStorageTRES, Licenses   read for what they change here
 *   NodeName:       CPUs (else Boards*Sockets*CoresPerSocket*ThreadsPerCore
 *                   or their SocketsPerBoard form), RealMemory (MB, default
 *                   1), Gres (gpu:4, gpu:a100:2); NodeName=DEFAULT lines
 *   PartitionName:  Nodes (host list or ALL), PriorityJobFactor and
 *                   PriorityTier (default 1; Priority= sets both), MaxTime,
 *                   TRESBillingWeights, Default; PartitionName=DEFAULT
 *
 * Time settings are kept the way slurmctld keeps them: whole minutes (a
 * time string's seconds round up) times 60.  UNLIMITED is kept as Slurm's
 * arithmetic leaves it: 0xffffffff minutes times 60 in 32 bits, i.e.
 * 4294967236 seconds (about 136 years).
 *
 * Slurm refuses to start on most bad values; mfprio goes on and reports
 * each one in `warnings`: "FILE:LINE: KEY=VALUE: what is wrong; using X",
 * after the conf reader's own warnings (slurm_conf.h), copied first.
 * As slurmctld does, a cluster not using slurmdbd for accounting
 * (AccountingStorageType other than accounting_storage/slurmdbd) gets its
 * age and fair-share weights set to 0, with a warning.  The core never
 * prints: the caller shows the warnings.
 *
 * Ownership: an mf_prio_conf_t owns everything in it; mf_prio_conf_free().
 */
#ifndef MFPRIO_PRIORITY_CONF_H
#define MFPRIO_PRIORITY_CONF_H

#include <glib.h>

#include "mf_error.h"
#include "priority.h"
#include "cluster_conf.h"
#include "priority_conf_types.h"
#include "slurm_conf.h"

/*
 * Read the priority settings and the cluster's shape from CONF.
 * Never fails for a bad value (see warnings above); returns NULL with errp
 * filled only when CONF is NULL.
 */
mf_prio_conf_t *mf_prio_conf_read(const mf_conf_t *conf, mf_error_t *errp);

/* Free; NULL is accepted. */
void mf_prio_conf_free(mf_prio_conf_t *pc);

/*
 * Fill CFG from PC (weights, flags, cluster size, part_max_priority; the
 * TRES pointers borrow from PC).  qos_max_priority and assoc_max_priority
 * are set to 0: they come from the QOS and association data.
 */
void mf_prio_conf_to_config(const mf_prio_conf_t *pc, mf_prio_config_t *cfg);

#endif
