/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <math.h>

#include "job_size_factor.h"
#include "priority_flags.h"

static double _relative_to_time(uint32_t min_nodes, uint32_t cpus,
				uint32_t time_limit, uint32_t node_count,
				uint32_t cluster_cpus, bool favor_small)
{
	double size = (double)min_nodes * (double)cluster_cpus /
		      (double)node_count;

	if ((double)cpus > size)
		size = (double)cpus;
	size /= (double)time_limit;
	size /= (double)cluster_cpus;
	return favor_small ? 1.0 - size : size;
}

double mf_job_size_factor(uint32_t min_nodes, uint32_t cpus,
			  uint32_t time_limit, uint32_t node_count,
			  uint32_t cluster_cpus, bool favor_small,
			  uint32_t flags, mf_release_t release)
{
	bool guarded = mf_release_js_guarded(release);
	double js;

	if (guarded && (!node_count || !cluster_cpus))
		return 0.0;
	if (flags & MF_FLAG_SMALL_RELATIVE_TO_TIME) {
		js = _relative_to_time(min_nodes, cpus, time_limit,
				       node_count, cluster_cpus, favor_small);
	} else if (favor_small) {
		/* unsigned differences, as Slurm takes them: a job larger
		 * than the cluster wraps to a huge share, held at 1.0 */
		if (guarded && min_nodes >= node_count)
			js = 0.0;
		else
			js = (double)(uint32_t)(node_count - min_nodes) /
			     (double)node_count;
		if (cpus)
			js = (js + (double)(uint32_t)(cluster_cpus - cpus) /
				   (double)cluster_cpus) / 2;
	} else {
		js = (double)min_nodes / (double)node_count;
		if (cpus)
			js = (js + (double)cpus / (double)cluster_cpus) / 2;
	}
	if (isnan(js) || js < 0.0)
		return 0.0;
	if (js > 1.0)
		return 1.0;
	return js;
}
