/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * priority_conf: the one reader of the typed settings the multifactor
 * plugin reads from slurm.conf, with Slurm 22.05's defaults (one table of
 * keys, readers and defaults in priority_conf.c, which `scontrol show
 * config` is read through too), and the cluster's size from its NodeName
 * and PartitionName lines.
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

/*
 * The settings alone of CONF (not NULL), its cluster left empty: the
 * table's keys, the TRES set, PriorityType and the others, with the conf
 * reader's warnings first.  mf_prio_conf_read() is this and the cluster.
 */
mf_prio_conf_t *mf_prio_conf_settings(const mf_conf_t *conf);

/*
 * Every setting of the table at its default, the cluster empty: what
 * mf_prio_conf_read() starts from.  Free with mf_prio_conf_free().
 */
mf_prio_conf_t *mf_prio_conf_defaults(void);

/*
 * Read the one setting P (a key of the table: the Priority* settings but
 * PriorityType, PriorityWeightTRES and the site factor, and
 * FairShareDampeningFactor, from any source: `scontrol show config` too)
 * into PC as mf_prio_conf_read() does.  Returns 0, 1 if P's key is no
 * setting of the table, -1 for a bad value (the default kept, a warning
 * added).
 */
int mf_prio_conf_take(mf_prio_conf_t *pc, const mf_conf_pair_t *p);

/* Free; NULL is accepted. */
void mf_prio_conf_free(mf_prio_conf_t *pc);

/*
 * Fill CFG from PC (weights, flags, cluster size, part_max_priority; the
 * TRES pointers borrow from PC).  qos_max_priority and assoc_max_priority
 * are set to 0: they come from the QOS and association data.
 */
void mf_prio_conf_to_config(const mf_prio_conf_t *pc, mf_prio_config_t *cfg);

#endif
