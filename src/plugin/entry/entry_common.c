/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * entry_common: what every release of release/releases.tsv looks up in a
 * priority plugin in the same form: its name, type and version, and the
 * entry points whose signature never changed.  The ones that differ are in
 * the family_*.c of each release family.
 */
#include "src/plugin/access/slurm.h"
#include "src/plugin/engine/mfp_entry.h"

const char plugin_name[] = "mfprio multifactor priority plugin";
const char plugin_type[] = "priority/multifactor";
const uint32_t plugin_version = SLURM_VERSION_NUMBER;

uint32_t priority_p_set(uint32_t last_prio, job_record_t *job_ptr);
void priority_p_reconfig(bool assoc_clear);
void priority_p_job_end(job_record_t *job_ptr);

uint32_t priority_p_set(uint32_t last_prio, job_record_t *job_ptr)
{
	return mfp_set(last_prio, job_ptr);
}

void priority_p_reconfig(bool assoc_clear)
{
	mfp_reconfig(assoc_clear);
}

void priority_p_job_end(job_record_t *job_ptr)
{
	mfp_job_end(job_ptr);
}
