/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * factors: where each release keeps a job's weighted factors and its
 * per-partition (per-QOS) priorities, and the shape of sprio's list.
 *
 *   release  job_ptr->prio_factors        per-partition priorities
 *   22.05    priority_factors_object_t *  job_ptr->priority_array
 *   23.02    priority_factors_t *         job_ptr->priority_array
 *   24.05    priority_factors_t *         job_ptr->part_prio (+ names)
 *   24.11    priority_factors_t *         job_ptr->prio_mult (+ names),
 *                                         partitions x QOS
 *
 * sprio's list: up to 23.11 the plugin filters sprio's request (job ids,
 * users, partitions) itself; from 23.02 slurmctld holds the job read lock
 * (and the QOS read lock) around the call, before that the plugin takes
 * it; from 24.05 there is no request (slurmctld filters).  From 23.02 the
 * objects borrow their strings from the job and are freed with
 * _free_light(); 22.05's own free function knows its objects.
 */
#include "src/plugin/adapter/adapter.h"
#include "src/plugin/engine/mfp_internal.h"

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
	if (!m->priority_array || m->last_update < last_part_update ||
	    (int) (xsize(m->priority_array) / sizeof(uint32_t)) != n) {
		xfree(m->priority_array);
		m->priority_array = xcalloc(n, sizeof(uint32_t));
		xfree(m->MFA_MULT_NAMES);
#if !MFA_HAS_PRIO_MULT
		if (job->part_ptr_list)
			list_sort(job->part_ptr_list, priority_sort_part_tier);
#endif
		if (job->part_ptr_list)
			m->MFA_MULT_NAMES = part_list_to_xstr(
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

/* --- sprio's list --- */

typedef struct {
	list_t *ret;
	job_record_t *job;
	part_record_t *part;     /* the partition of this object, NULL: the
				  * job's only one */
	bool multi;              /* the job has a partition list */
} _build_t;

#if MFA_HAS_PRIORITY_FACTORS_T
static void _free_light(void *x)
{
	priority_factors_object_t *obj = x;

	if (!obj)
		return;
	slurm_destroy_priority_factors(obj->prio_factors);
	xfree(obj);
}

/* mfa_job_each_qos: one object of job B->job in B->part with QOS. */
static void _add_obj(slurmdb_qos_rec_t *qos, void *arg)
{
	_build_t *b = arg;
	job_record_t *job = b->job;
	priority_factors_object_t *obj = xmalloc(sizeof(*obj));
	priority_factors_t *pf;

	obj->account = job->account;
#if MFA_FACTORS_STEP_ID
	obj->step_id = job->step_id;
#else
	obj->job_id = job->job_id;
#endif
	obj->partition = b->part ? b->part->name : job->part_ptr->name;
	obj->qos = qos ? qos->name : job->qos_ptr ? job->qos_ptr->name : NULL;
	obj->user_id = job->user_id;
	if (!b->ret)
		b->ret = list_create(_free_light);
	list_append(b->ret, obj);
	if (job->direct_set_prio) {
		obj->direct_prio = job->priority;
		return;
	}
	pf = obj->prio_factors = xmalloc(sizeof(*pf));
	if (job->prio_factors)
		slurm_copy_priority_factors(pf, job->prio_factors);
	mfp_job_part_terms(job, b->multi ? b->part : NULL, qos,
			   &pf->priority_part, &pf->priority_qos,
			   pf->priority_tres, pf->priority_tres ?
			   pf->tres_cnt : 0);
}
#else
static void _add_obj(slurmdb_qos_rec_t *qos, void *arg)
{
	_build_t *b = arg;
	job_record_t *job = b->job;
	priority_factors_object_t *obj = xmalloc(sizeof(*obj));

	if (!b->ret)
		b->ret = list_create(slurm_destroy_priority_factors_object);
	list_append(b->ret, obj);
	if (job->direct_set_prio && !b->multi)
		obj->direct_prio = job->priority;
	else if (job->prio_factors)
		slurm_copy_priority_factors_object(obj, job->prio_factors);
	if (b->multi)
		mfp_job_part_terms(job, b->part, NULL, &obj->priority_part,
				   &obj->priority_qos, obj->priority_tres,
				   obj->priority_tres ? obj->tres_cnt : 0);
	obj->job_id = job->job_id;
	obj->partition = b->part ? b->part->name : job->part_ptr->name;
	obj->user_id = job->user_id;
}
#endif

#if !MFA_FACTORS_LIST_UID_ONLY
static int _find_u32(void *x, void *key)
{
	return *(uint32_t *) x == *(uint32_t *) key;
}

static int _find_ptr(void *x, void *key)
{
	return x == key;
}
#endif

/* One job's objects: one per partition (that passes PART_FILTER) and QOS. */
static void _add_job(_build_t *b, list_t *part_filter)
{
	job_record_t *job = b->job;
	part_record_t *p;
	list_itr_t *itr;

	b->multi = job->part_ptr_list != NULL;
	if (!b->multi) {
#if !MFA_FACTORS_LIST_UID_ONLY
		if (part_filter &&
		    !list_find_first(part_filter, _find_ptr, job->part_ptr))
			return;
#endif
		b->part = NULL;
		mfa_job_each_qos(job, _add_obj, b);
		return;
	}
	itr = list_iterator_create(job->part_ptr_list);
	while ((p = list_next(itr))) {
#if !MFA_FACTORS_LIST_UID_ONLY
		if (part_filter &&
		    !list_find_first(part_filter, _find_ptr, p))
			continue;
#endif
		b->part = p;
		mfa_job_each_qos(job, _add_obj, b);
	}
	list_iterator_destroy(itr);
}

list_t *mfa_factors_list(void *req_arg, uid_t uid)
{
#if !MFA_FACTORS_LIST_UID_ONLY
	priority_factors_request_msg_t *req = req_arg;
#endif
#if !MFA_HAS_INTERFACES_DIR
	/* 22.05's slurmctld calls without its locks */
	slurmctld_lock_t job_read_lock = { .job = READ_LOCK,
					   .node = READ_LOCK,
					   .part = READ_LOCK };
#endif
	_build_t b = { 0 };
	list_t *part_filter = NULL;
	time_t now = time(NULL);
	job_record_t *job;
	list_itr_t *itr;

#if !MFA_HAS_INTERFACES_DIR
	lock_slurmctld(job_read_lock);
#endif
#if !MFA_FACTORS_LIST_UID_ONLY
	if (req && req->partitions) {
		char *names = xstrdup(req->partitions), *save = NULL, *tok;

		part_filter = list_create(NULL);
		for (tok = strtok_r(names, ",", &save); tok;
		     tok = strtok_r(NULL, ",", &save)) {
			part_record_t *p = find_part_record(tok);

			if (p)
				list_append(part_filter, p);
		}
		xfree(names);
	}
#endif
	mfp_conf_enter();       /* one set of settings for the whole list */
	if (job_list && list_count(job_list)) {
		itr = list_iterator_create(job_list);
		while ((job = list_next(itr))) {
			if (!mfp_job_listed(job, now) ||
			    !mfa_job_visible(job, uid))
				continue;
#if !MFA_FACTORS_LIST_UID_ONLY
			if (req && req->job_id_list &&
			    !list_find_first(req->job_id_list, _find_u32,
					     &job->job_id))
				continue;
			if (req && req->uid_list &&
			    !list_find_first(req->uid_list, _find_u32,
					     &job->user_id))
				continue;
#endif
			b.job = job;
			_add_job(&b, part_filter);
		}
		list_iterator_destroy(itr);
	}
	mfp_conf_leave();
	if (b.ret && !list_count(b.ret))
		FREE_NULL_LIST(b.ret);
#if !MFA_HAS_INTERFACES_DIR
	unlock_slurmctld(job_read_lock);
#endif
	FREE_NULL_LIST(part_filter);
	return b.ret;
}
