/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * conf_values: the values of slurm.conf's priority and cluster settings
 * as slurmctld reads them (whole numbers, k suffixes, UNLIMITED, yes and
 * no), and the warnings a setting it would ignore or correct gets, for
 * priority_conf.c and cluster_conf.c.
 */
#ifndef MFPRIO_CONF_VALUES_H
#define MFPRIO_CONF_VALUES_H

#include <stdbool.h>
#include <stdint.h>

#include "priority_conf_types.h"
#include "slurm_conf.h"

/* Append "FILE:LINE: KEY=VALUE: <message>" (P NULL: the message alone)
 * to PC's warnings.  Returns nothing. */
void mf_pconf_warn(mf_prio_conf_t *pc, const mf_conf_pair_t *p,
		   const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Slurm's unsigned 32-bit reading: strtoul base 0, an optional k/K
 * (x1024), or UNLIMITED/INFINITE.  Returns 0, or -1 with WHY set. */
int mf_pconf_u32(const char *s, uint32_t *out, const char **why);

/* The same within 16 bits.  Returns 0, or -1 with WHY set. */
int mf_pconf_u16(const char *s, uint16_t *out, const char **why);

/* YES/UP/TRUE/1 or NO/DOWN/FALSE/0, in any case.  Returns 0 or -1. */
int mf_pconf_bool(const char *s, bool *out);

#endif
