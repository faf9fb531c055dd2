/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * priority_conf_types: the priority settings and the cluster read from a
 * slurm.conf (priority_conf.h reads them; cluster_conf.h and
 * conf_values.h fill parts of them).
 */
#ifndef MFPRIO_PRIORITY_CONF_TYPES_H
#define MFPRIO_PRIORITY_CONF_TYPES_H

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>

#include "decay.h"
#include "mf_error.h"
#include "priority.h"
#include "slurm_conf.h"
#include "tres.h"

typedef struct {
	char *name;
	uint32_t cpus;
	uint64_t real_memory;    /* MB */
	uint64_t *tres_cnt;      /* node TRES by the conf's set: cpu, mem,
				  * node (1), gres/... */
} mf_conf_node_t;

typedef struct {
	char *name;
	bool is_default;         /* Default=YES */
	GPtrArray *nodes;        /* mf_conf_node_t* (borrowed from the
				  * conf's nodes), in Nodes= order */
	char *billing_weights_str;  /* TRESBillingWeights as written, or
				     * NULL */
	uint64_t *tres_cnt;      /* totals by the conf's TRES set */
	double *billing_weights; /* by the conf's TRES set, or NULL */
	mf_part_t part;          /* what priority.h reads; its pointers
				  * point into this struct */
} mf_conf_part_t;

typedef struct {
	/* the settings */
	uint32_t weight_age;
	uint32_t weight_assoc;
	uint32_t weight_fs;
	uint32_t weight_js;
	uint32_t weight_part;
	uint32_t weight_qos;
	char *weight_tres_str;   /* PriorityWeightTRES as written, or NULL */
	double *weight_tres;     /* by `tres`, or NULL (none, or invalid) */
	uint32_t max_age;        /* seconds */
	uint32_t decay_half_life;    /* seconds, 0: no decay */
	uint32_t calc_period;    /* seconds */
	mf_reset_period_t reset_period;
	bool favor_small;
	uint32_t flags;          /* MF_FLAG_* */
	uint16_t fs_damp;        /* FairShareDampeningFactor */
	char *priority_type;     /* PriorityType (default priority/basic) */
	char *site_factor_plugin;    /* PrioritySiteFactorPlugin or NULL */

	/* the cluster */
	mf_tres_set_t *tres;     /* fixed TRES + AccountingStorageTRES */
	GPtrArray *nodes;        /* mf_conf_node_t*, in file order */
	GPtrArray *parts;        /* mf_conf_part_t*, in file order */
	uint64_t *cluster_tres;  /* the cluster's totals by `tres`
				  * (licenses from Licenses=) */
	uint32_t cluster_cpus;
	uint32_t node_count;
	uint32_t part_max_priority;

	GPtrArray *warnings;     /* char*, one sentence each */
	GPtrArray *warned;       /* char*, the key each warning is about
				  * ("" for the conf reader's own and
				  * those of no one key) */
} mf_prio_conf_t;

#endif
