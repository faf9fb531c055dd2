/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * access/sprio: sprio's objects and request in the release's shape (the
 * table is in sprio.h).  From 23.02 the objects borrow their strings from
 * the job and are freed with _free_light(); 22.05's own free function
 * knows its objects.
 */
#include "src/plugin/access/sprio.h"
#include "src/plugin/access/ctld.h"

#if !MFA_HAS_INTERFACES_DIR
/* 22.05's slurmctld calls without its locks */
static const slurmctld_lock_t _job_read_lock = { .job = READ_LOCK,
					   .node = READ_LOCK,
					   .part = READ_LOCK };
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

void mfa_sprio_begin(mfa_sprio_t *s, void *req)
{
	*s = (mfa_sprio_t) { .req = req };
#if !MFA_HAS_INTERFACES_DIR
	mfa_ctld_lock(_job_read_lock);
#endif
#if !MFA_FACTORS_LIST_UID_ONLY
	priority_factors_request_msg_t *r = req;

	if (r && r->partitions) {
		char *names = xstrdup(r->partitions), *save = NULL, *tok;

		s->part_filter = list_create(NULL);
		for (tok = strtok_r(names, ",", &save); tok;
		     tok = strtok_r(NULL, ",", &save)) {
			part_record_t *p = mfa_find_part(tok);

			if (p)
				list_append(s->part_filter, p);
		}
		xfree(names);
	}
#endif
}

bool mfa_sprio_wants_job(const mfa_sprio_t *s, job_record_t *job)
{
#if !MFA_FACTORS_LIST_UID_ONLY
	priority_factors_request_msg_t *r = s->req;

	if (r && r->job_id_list &&
	    !list_find_first(r->job_id_list, _find_u32, &job->job_id))
		return false;
	if (r && r->uid_list &&
	    !list_find_first(r->uid_list, _find_u32, &job->user_id))
		return false;
#endif
	return true;
}

bool mfa_sprio_wants_part(const mfa_sprio_t *s, part_record_t *part)
{
#if !MFA_FACTORS_LIST_UID_ONLY
	if (s->part_filter &&
	    !list_find_first(s->part_filter, _find_ptr, part))
		return false;
#endif
	return true;
}

#if MFA_HAS_PRIORITY_FACTORS_T
static void _free_light(void *x)
{
	priority_factors_object_t *obj = x;

	if (!obj)
		return;
	slurm_destroy_priority_factors(obj->prio_factors);
	xfree(obj);
}

bool mfa_sprio_add(mfa_sprio_t *s, job_record_t *job, part_record_t *part,
		   bool multi, slurmdb_qos_rec_t *qos, mfa_sprio_terms_t *t)
{
	priority_factors_object_t *obj = xmalloc(sizeof(*obj));
	priority_factors_t *pf;

	obj->account = job->account;
#if MFA_FACTORS_STEP_ID
	obj->step_id = job->step_id;
#else
	obj->job_id = job->job_id;
#endif
	obj->partition = part ? part->name : job->part_ptr->name;
	obj->qos = qos ? qos->name : job->qos_ptr ? job->qos_ptr->name : NULL;
	obj->user_id = job->user_id;
	if (!s->ret)
		s->ret = list_create(_free_light);
	list_append(s->ret, obj);
	if (job->direct_set_prio) {
		obj->direct_prio = job->priority;
		return false;
	}
	pf = obj->prio_factors = xmalloc(sizeof(*pf));
	if (job->prio_factors)
		slurm_copy_priority_factors(pf, job->prio_factors);
	*t = (mfa_sprio_terms_t) {
		.part = multi ? part : NULL,
		.qos = qos,
		.w_part = &pf->priority_part,
		.w_qos = &pf->priority_qos,
		.w_tres = pf->priority_tres,
		.tres_cnt = pf->priority_tres ? pf->tres_cnt : 0,
	};
	return true;
}
#else
bool mfa_sprio_add(mfa_sprio_t *s, job_record_t *job, part_record_t *part,
		   bool multi, slurmdb_qos_rec_t *qos, mfa_sprio_terms_t *t)
{
	priority_factors_object_t *obj = xmalloc(sizeof(*obj));

	if (!s->ret)
		s->ret = list_create(slurm_destroy_priority_factors_object);
	list_append(s->ret, obj);
	if (job->direct_set_prio && !multi)
		obj->direct_prio = job->priority;
	else if (job->prio_factors)
		slurm_copy_priority_factors_object(obj, job->prio_factors);
	obj->job_id = job->job_id;
	obj->partition = part ? part->name : job->part_ptr->name;
	obj->user_id = job->user_id;
	if (!multi)
		return false;
	*t = (mfa_sprio_terms_t) {
		.part = part,
		.qos = NULL,
		.w_part = &obj->priority_part,
		.w_qos = &obj->priority_qos,
		.w_tres = obj->priority_tres,
		.tres_cnt = obj->priority_tres ? obj->tres_cnt : 0,
	};
	return true;
}
#endif

list_t *mfa_sprio_end(mfa_sprio_t *s)
{
	list_t *ret = s->ret;

	if (ret && !list_count(ret))
		FREE_NULL_LIST(ret);
#if !MFA_HAS_INTERFACES_DIR
	mfa_ctld_unlock(_job_read_lock);
#endif
	FREE_NULL_LIST(s->part_filter);
	*s = (mfa_sprio_t) { 0 };
	return ret;
}
