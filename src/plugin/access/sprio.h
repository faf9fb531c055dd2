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
 *   26.11    as 26.05
 *
 * The objects of one list share a few large blocks, given back with the
 * list's last object (slurmctld frees the list after packing it) and kept
 * for the next list (16 MiB at most).
 *
 * Calls nothing above it.  Nothing here fails: a partition of the request
 * that does not exist is left out of the filter.
 */
#ifndef MFPRIO_PLUGIN_ACCESS_SPRIO_H
#define MFPRIO_PLUGIN_ACCESS_SPRIO_H

#include "src/plugin/access/slurm.h"

/* The memory of one list's objects (access/sprio.c). */
typedef struct mfa_sprio_pool mfa_sprio_pool_t;

/* One list being made: between mfa_sprio_begin() and mfa_sprio_end(). */
typedef struct {
	list_t *ret;             /* the objects so far, or NULL: none */
	mfa_sprio_pool_t *pool;  /* their memory, or NULL: none yet */
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

/* Called for each job to look at, in order. */
typedef void (*mfa_sprio_job_fn)(job_record_t *job, void *arg);

/*
 * FN(job, ARG) for each job to look at: those of the request's job ids
 * (each once, by id: a request that names jobs does not walk the job
 * list), else every job of slurmctld's list, in its order.  The jobs are
 * still to be checked with mfa_sprio_wants_job().
 */
void mfa_sprio_each_job(const mfa_sprio_t *s, mfa_sprio_job_fn fn, void *arg);

/*
 * Ask the CPU for what a job's check and object will read, ahead of use:
 * STAGE 0 the job's own record, 1 what it points to (its details and
 * figures: the record must be there by then), 2 its figures' TRES arrays.
 * Reads nothing that may be missing; changes nothing.
 */
void mfa_sprio_prefetch(job_record_t *job, int stage);

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

/* Free the blocks kept for the next list (at the plugin's end). */
void mfa_sprio_fini(void);

#endif
