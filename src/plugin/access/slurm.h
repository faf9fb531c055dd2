/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * access/slurm.h: the Slurm headers the plugin needs, chosen for the
 * release it is built against (releases.h), in one place, and weak
 * references to everything that only slurmctld defines.  The engine
 * includes this and nothing else of Slurm's.
 *
 * The same .so is dlopened by slurmctld and by the sshare client.  Inside
 * slurmctld the controller's globals (job_list, cluster_cpus, ...) and
 * functions (lock_slurmctld, ...) resolve at load time.  Inside sshare they
 * do not exist: weak references resolve to NULL instead of failing the
 * load, and mfa_in_controller() tells the two cases apart.  Never touch a
 * controller symbol without checking mfa_in_controller() first.
 */
#ifndef MFPRIO_PLUGIN_ACCESS_SLURM_H
#define MFPRIO_PLUGIN_ACCESS_SLURM_H

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
#include "slurm/slurm_version.h"

#include "src/plugin/access/releases.h"

#include "src/common/assoc_mgr.h"
#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/macros.h"
#include "src/common/pack.h"
#include "src/common/read_config.h"
#include "src/common/slurm_protocol_api.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#if MFA_HAS_INTERFACES_DIR
#include "src/interfaces/mcs.h"
#include "src/interfaces/priority.h"
#include "src/interfaces/site_factor.h"
#else
#include "src/common/site_factor.h"
#include "src/common/slurm_mcs.h"
#include "src/common/slurm_priority.h"
#endif
#include "src/slurmctld/locks.h"
#include "src/slurmctld/slurmctld.h"

/* The names the newer releases use, for the older ones that lack them
 * (the engine writes only these). */
#if !MFA_HAS_LIST_T
typedef struct xlist list_t;
typedef struct listIterator list_itr_t;
typedef struct job_details job_details_t;
#endif

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
#if MFA_HAS_PRIORITY_PARTS
#pragma weak part_list_to_xstr
#pragma weak last_part_update
#pragma weak acct_policy_get_acct_used_limits
#pragma weak acct_policy_get_user_used_limits
#endif
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
static inline bool mfa_in_controller(void)
{
	return &cluster_cpus && &job_list && &slurmctld_tres_cnt &&
		lock_slurmctld && (cluster_cpus != NO_VAL);
}

#endif
