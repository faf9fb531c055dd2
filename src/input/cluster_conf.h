/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cluster_conf: the cluster a slurm.conf describes, as the priority
 * computation needs it: its nodes (CPUs, memory, GRES) and partitions
 * (their nodes and TRES, PriorityJobFactor, PriorityTier, MaxTime,
 * Default, TRESBillingWeights), DEFAULT lines applied, a setting
 * slurmctld would ignore warned about.
 */
#ifndef MFPRIO_CLUSTER_CONF_H
#define MFPRIO_CLUSTER_CONF_H

#include <glib.h>

#include "priority_conf_types.h"
#include "slurm_conf.h"

/* Read CONF's NodeName records into PC->nodes.  Returns nothing. */
void mf_pconf_read_nodes(mf_prio_conf_t *pc, const mf_conf_t *conf);

/* Read CONF's PartitionName records into PC->parts (after the nodes).
 * Returns nothing. */
void mf_pconf_read_parts(mf_prio_conf_t *pc, const mf_conf_t *conf);

/* Free a node and a partition of PC's arrays (GDestroyNotify). */
void mf_pconf_node_free(gpointer node);
void mf_pconf_part_free(gpointer part);

/* The partition NAME (case-sensitive, as Slurm), or NULL. */
const mf_conf_part_t *mf_prio_conf_find_part(const mf_prio_conf_t *pc,
					     const char *name);

/* The Default=YES partition (the last one marked), or NULL. */
const mf_conf_part_t *mf_prio_conf_default_part(const mf_prio_conf_t *pc);

#endif
