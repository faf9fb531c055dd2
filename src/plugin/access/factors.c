/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * factors: where each release keeps a job's weighted factors and its
 * per-partition (per-QOS) priorities.
 *
 *   release  job_ptr->prio_factors        per-partition priorities
 *   22.05    priority_factors_object_t *  job_ptr->priority_array
 *   23.02    priority_factors_t *         job_ptr->priority_array
 *   24.05    priority_factors_t *         job_ptr->part_prio (+ names)
 *   24.11    priority_factors_t *         job_ptr->prio_mult (+ names),
 *                                         partitions x QOS
 *
 * sprio's list is access/sprio.c's.  Nothing here calls the engine.
 */
#include "src/plugin/access/factors.h"
#include "src/plugin/access/ctld.h"

#if MFA_HAS_PRIORITY_FACTORS_T
typedef priority_factors_t mfa_pf_t;
#else
typedef priority_factors_object_t mfa_pf_t;
#endif

static void _pf_clear(mfa_pf_t *pf)
{
	xfree(pf->tres_weights);
	xfree(pf->priority_tres);
	memset(pf, 0, sizeof(*pf));
}

void mfa_factors_clear(job_record_t *job)
{
	if (job->prio_factors)
		_pf_clear((mfa_pf_t *) job->prio_factors);
}

void mfa_factors_store(job_record_t *job, const mf_prio_result_t *r,
		       const double *tres_weights, uint32_t tres_cnt)
{
	mfa_pf_t *pf;
	double *keep_tres = NULL, *keep_weights = NULL;

	if (!job->prio_factors)
		job->prio_factors = xmalloc(sizeof(mfa_pf_t));
	pf = (mfa_pf_t *) job->prio_factors;
	/* the TRES arrays of the last pass are kept when they fit: no
	 * allocation per job per pass; everything else starts from zero */
	if (tres_weights && tres_cnt && pf->tres_cnt == tres_cnt &&
	    pf->priority_tres && pf->tres_weights) {
		keep_tres = pf->priority_tres;
		keep_weights = pf->tres_weights;
		pf->priority_tres = pf->tres_weights = NULL;
	}
	_pf_clear(pf);
	pf->priority_tres = keep_tres;
	pf->tres_weights = keep_weights;
	pf->priority_age = r->w_age;
	pf->priority_assoc = r->w_assoc;
	pf->priority_fs = r->w_fs;
	pf->priority_js = r->w_js;
	pf->priority_part = r->w_part;
	pf->priority_qos = r->w_qos;
	pf->priority_site = job->site_factor;
	pf->nice = job->details ? job->details->nice : NICE_OFFSET;
	if (tres_weights && tres_cnt) {
		pf->tres_cnt = tres_cnt;
		if (!pf->priority_tres) {
			pf->priority_tres = xcalloc(tres_cnt, sizeof(double));
			pf->tres_weights = xcalloc(tres_cnt, sizeof(double));
		} else {
			memset(pf->priority_tres, 0,
			       sizeof(double) * tres_cnt);
		}
		memcpy(pf->tres_weights, tres_weights,
		       sizeof(double) * tres_cnt);
		if (r->w_tres)
			memcpy(pf->priority_tres, r->w_tres,
			       sizeof(double) * MIN(tres_cnt, r->tres_cnt));
	}
}

int mfa_job_qos_count(job_record_t *job)
{
#if MFA_HAS_QOS_LIST
	return job->qos_list ? list_count(job->qos_list) : 0;
#else
	return 0;
#endif
}

#if MFA_HAS_QOS_LIST
typedef struct {
	mfa_qos_fn fn;
	void *arg;
} _each_qos_t;

static int _each_qos(void *x, void *arg)
{
	_each_qos_t *e = arg;

	e->fn(x, e->arg);
	return 0;
}
#endif

void mfa_job_each_qos(job_record_t *job, mfa_qos_fn fn, void *arg)
{
#if MFA_HAS_QOS_LIST
	if (job->qos_list) {
		_each_qos_t e = { .fn = fn, .arg = arg };

		(void) list_for_each(job->qos_list, _each_qos, &e);
		return;
	}
#endif
	fn(NULL, arg);
}

#if MFA_HAS_PRIORITY_PARTS
/* 24.05's part_prio and 24.11's prio_mult have the same three fields */
#if MFA_HAS_PRIO_MULT
#define MFA_MULT prio_mult
#define MFA_MULT_NAMES priority_array_names
typedef priority_mult_t mfa_mult_t;
#else
#define MFA_MULT part_prio
#define MFA_MULT_NAMES priority_array_parts
typedef priority_parts_t mfa_mult_t;
#endif

uint32_t *mfa_job_prio_array(job_record_t *job, int n)
{
	mfa_mult_t *m = job->MFA_MULT;

	if (n <= 0) {
		if (m) {
			xfree(m->priority_array);
			xfree(m->MFA_MULT_NAMES);
			xfree(job->MFA_MULT);
		}
		return NULL;
	}
	if (!m)
		m = job->MFA_MULT = xmalloc(sizeof(*m));
	/* a new array when there is none or the partitions changed since
	 * (slurmctld reads the names beside it); the slot count of the old
	 * one is not kept, so a change of count also starts anew */
	if (!m->priority_array || m->last_update < mfa_last_part_update() ||
	    (int) (xsize(m->priority_array) / sizeof(uint32_t)) != n) {
		xfree(m->priority_array);
		m->priority_array = xcalloc(n, sizeof(uint32_t));
		xfree(m->MFA_MULT_NAMES);
#if !MFA_HAS_PRIO_MULT
		if (job->part_ptr_list)
			list_sort(job->part_ptr_list, priority_sort_part_tier);
#endif
		if (job->part_ptr_list)
			m->MFA_MULT_NAMES = mfa_part_list_names(
				job->part_ptr_list);
		m->last_update = time(NULL);
	}
	return m->priority_array;
}

const uint32_t *mfa_job_prio_peek(job_record_t *job, int *n)
{
	mfa_mult_t *m = job->MFA_MULT;

	*n = (m && m->priority_array) ?
		(int) (xsize(m->priority_array) / sizeof(uint32_t)) : 0;
	return *n ? m->priority_array : NULL;
}
#else
uint32_t *mfa_job_prio_array(job_record_t *job, int n)
{
	if (n <= 0) {
		/* slurmctld frees the array when the partitions change */
		return NULL;
	}
	if (job->part_ptr_list)
		list_sort(job->part_ptr_list, priority_sort_part_tier);
	if (!job->priority_array)
		job->priority_array = xcalloc(n + 1, sizeof(uint32_t));
	return job->priority_array;
}

const uint32_t *mfa_job_prio_peek(job_record_t *job, int *n)
{
	/* one slot more than asked for: slurmctld's end marker */
	*n = job->priority_array ?
		(int) (xsize(job->priority_array) / sizeof(uint32_t)) - 1 : 0;
	return *n > 0 ? job->priority_array : NULL;
}
#endif
