/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * access/sprio: the shape of sprio's list in the release built for, and
 * sprio's request where the release passes one.  The engine
 * (engine/mfp_sprio.c) decides which jobs are listed and computes the
 * figures; this module only makes the objects and reads the request.
 *
 *   release  request              locks                 an object
 *   22.05    job ids, users,      taken here (job read) priority_factors_
 *            partitions                                 object_t, owning
 *   23.02    the same             slurmctld's           borrows the job's
 *                                                       strings, its own
 *                                                       priority_factors_t
 *   24.05    none (slurmctld      slurmctld's           as 23.02
 *            filters)
 *   26.05    none                 slurmctld's           a slurm_step_id_t
 *
 * Calls nothing above it.  Nothing here fails: a partition of the request
 * that does not exist is left out of the filter.
 */
#ifndef MFPRIO_PLUGIN_ACCESS_SPRIO_H
#define MFPRIO_PLUGIN_ACCESS_SPRIO_H

#include "src/plugin/access/slurm.h"

/* One list being made: between mfa_sprio_begin() and mfa_sprio_end(). */
typedef struct {
	list_t *ret;             /* the objects so far, or NULL: none */
	void *req;               /* sprio's request (up to 23.11), or NULL */
	list_t *part_filter;     /* the partitions it asks for, or NULL */
} mfa_sprio_t;

/* Where the engine writes the figures of one object of a multi-partition
 * (or multi-QOS) job: the partition and QOS to compute them for (NULL:
 * not that term), and the object's fields. */
typedef struct {
	part_record_t *part;
	slurmdb_qos_rec_t *qos;
	double *w_part;
	double *w_qos;
	double *w_tres;          /* TRES_CNT entries, or NULL */
	uint32_t tres_cnt;
} mfa_sprio_terms_t;

/* Begin a list for sprio's request REQ (the release's request message up
 * to 23.11; NULL from 24.05).  Takes slurmctld's job read lock where the
 * release's caller does not hold it (22.05), until mfa_sprio_end(). */
void mfa_sprio_begin(mfa_sprio_t *s, void *req);

/* Does the request ask for JOB (its job ids and users; true without a
 * request)? */
bool mfa_sprio_wants_job(const mfa_sprio_t *s, job_record_t *job);

/* Does the request ask for PART (its partitions; true without)? */
bool mfa_sprio_wants_part(const mfa_sprio_t *s, part_record_t *part);

/*
 * Add JOB's object in PART (NULL: the job's only partition) with QOS (NULL:
 * the job's own), MULTI: the job has a partition list.  Returns true when
 * the object needs figures of its own, which the caller then writes where
 * *T says; false when it is complete (one partition, or an administrator's
 * priority).
 */
bool mfa_sprio_add(mfa_sprio_t *s, job_record_t *job, part_record_t *part,
		   bool multi, slurmdb_qos_rec_t *qos, mfa_sprio_terms_t *t);

/* End the list: releases what mfa_sprio_begin() took.  Returns the list
 * (the caller's; slurmctld frees it), or NULL when it holds nothing. */
list_t *mfa_sprio_end(mfa_sprio_t *s);

#endif
