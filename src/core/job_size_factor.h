/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * job_size_factor: the job's size relative to the cluster.
 *
 * Default (favor large): the mean of the node share and the CPU share,
 *   js = (min_nodes / node_count + cpus / cluster_cpus) / 2
 * (the node share alone when the job's CPU count is 0).
 * PriorityFavorSmall=YES: the mean of the complements,
 *   js = ((node_count - min_nodes) / node_count
 *         + (cluster_cpus - cpus) / cluster_cpus) / 2
 * the differences taken unsigned, as in Slurm: a job asking for more than
 * the cluster has wraps around and gets 1.0.
 * PriorityFlags=SMALL_RELATIVE_TO_TIME: CPUs per minute of time limit over
 * the cluster's CPUs, the CPUs being at least min_nodes times the mean
 * CPUs per node:
 *   js = max(cpus, min_nodes * cluster_cpus / node_count)
 *        / time_limit / cluster_cpus
 * (time_limit in minutes: the job's, else its partition's MaxTime, else 1;
 * 1 - js with PriorityFavorSmall).
 * The result is held within 0.0 .. 1.0.  A cluster with no nodes or CPUs,
 * or a 0 time limit, gives what the formula gives within those bounds, and
 * 0 where it gives no number (Slurm would divide by zero).
 * From Slurm 23.02 (RELEASE, see release.h): 0 for a cluster with no node
 * or no CPU, and under PriorityFavorSmall the node term is 0 for a job
 * asking for more nodes than the cluster has.
 */
#ifndef MFPRIO_JOB_SIZE_FACTOR_H
#define MFPRIO_JOB_SIZE_FACTOR_H

#include <stdbool.h>
#include <stdint.h>

#include "release.h"

/*
 * MIN_NODES and CPUS of the job; TIME_LIMIT its limit in minutes (only
 * with SMALL_RELATIVE_TO_TIME; the caller resolves "partition's"), FLAGS
 * the PriorityFlags, FAVOR_SMALL PriorityFavorSmall, RELEASE the Slurm
 * release imitated (0: MF_RELEASE_DEFAULT).
 */
double mf_job_size_factor(uint32_t min_nodes, uint32_t cpus,
			  uint32_t time_limit, uint32_t node_count,
			  uint32_t cluster_cpus, bool favor_small,
			  uint32_t flags, mf_release_t release);

#endif
