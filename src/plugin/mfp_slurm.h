/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mfp_slurm: the Slurm headers the plugin layer needs, in one place, and
 * weak references to everything that only slurmctld defines.
 *
 * The same .so is dlopened by slurmctld and by the sshare client.  Inside
 * slurmctld the controller's globals (job_list, cluster_cpus, ...) and
 * functions (lock_slurmctld, ...) resolve at load time.  Inside sshare they
 * do not exist: weak references resolve to NULL instead of failing the
 * load, and mfp_in_controller() tells the two cases apart.  Never touch a
 * controller symbol without checking mfp_in_controller() first.
 */
#ifndef MFPRIO_PLUGIN_MFP_SLURM_H
#define MFPRIO_PLUGIN_MFP_SLURM_H

/*
 * mfprio's config.h (the build directory comes first on the include path,
 * so Slurm's headers that include "config.h" get this one too).  Slurm's
 * headers use nothing from their own config.h that changes a structure's
 * layout; they do need NDEBUG as Debian's build sets it (--disable-debug),
 * or xassert() would call into debug-only code.
 */
#include "config.h"
#ifndef NDEBUG
#define NDEBUG 1
#endif
#define MFPRIO_VERSION PACKAGE_VERSION

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"
#include "src/common/assoc_mgr.h"
#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/macros.h"
#include "src/common/pack.h"
#include "src/common/read_config.h"
#include "src/common/site_factor.h"
#include "src/common/slurm_mcs.h"
#include "src/common/slurm_priority.h"
#include "src/common/slurm_protocol_api.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/locks.h"
#include "src/slurmctld/slurmctld.h"

/* assoc_mgr's highest association priority (libslurmfull defines it; its
 * header does not declare it). */
extern uint32_t g_assoc_max_priority;

/* Data that only slurmctld defines. */
#pragma weak acct_db_conn
#pragma weak accounting_enforce
#pragma weak cluster_cpus
#pragma weak ignore_state_errors
#pragma weak job_list
#pragma weak last_job_update
#pragma weak node_record_count
#pragma weak slurmctld_tres_cnt

/* Functions that only slurmctld defines. */
#pragma weak calc_job_billable_tres
#pragma weak find_part_record
#pragma weak lock_slurmctld
#pragma weak lock_state_files
#pragma weak unlock_slurmctld
#pragma weak unlock_state_files
#pragma weak validate_operator
#pragma weak part_max_priority

/* True when loaded by slurmctld (its globals exist and it has set them up),
 * false in a client such as sshare. */
static inline bool mfp_in_controller(void)
{
	return &cluster_cpus && &job_list && &slurmctld_tres_cnt &&
		lock_slurmctld && (cluster_cpus != NO_VAL);
}

#endif
