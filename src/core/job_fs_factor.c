/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <math.h>

#include "fs_factor.h"
#include "job_fs_factor.h"

double mf_job_fs_factor(const mf_assoc_t *assoc, mf_fs_algo_t algo,
			uint16_t damp)
{
	const mf_assoc_t *fs_assoc;
	double f;

	if (!assoc)
		return 0.0;
	if (algo == MF_FS_FAIR_TREE) {
		f = assoc->fs_factor;
		return isnan(f) ? 0.0 : f;
	}
	fs_assoc = assoc;
	if (mf_assoc_is_parent_fs(assoc) && assoc->fs_parent)
		fs_assoc = assoc->fs_parent;
	if (isnan((double)fs_assoc->usage_efctv) ||
	    isnan(fs_assoc->shares_norm))
		return 0.0;
	f = mf_fs_factor(fs_assoc->usage_efctv, fs_assoc->shares_norm, damp);
	return isnan(f) ? 0.0 : f;
}
