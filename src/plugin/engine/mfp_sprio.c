/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mfp_sprio: sprio's list (the contract is in mfp_sprio.h): one object
 * per job, and for a job in several partitions (or, from 24.11, with
 * several QOS) one per partition and QOS, made by the accessors
 * (access/sprio.h) and given their figures here.
 */
#include "src/plugin/access/sprio.h"

#include "mfp_jobs.h"
#include "mfp_settings.h"
#include "mfp_sprio.h"

/* One job's objects being made. */
typedef struct {
	mfa_sprio_t *s;
	job_record_t *job;
	part_record_t *part;     /* the partition of this object, NULL: the
				  * job's only one */
	bool multi;              /* the job has a partition list */
} _build_t;

/* mfa_job_each_qos: one object of job B->job in B->part with QOS. */
static void _add_obj(slurmdb_qos_rec_t *qos, void *arg)
{
	_build_t *b = arg;
	mfa_sprio_terms_t t;

	if (mfa_sprio_add(b->s, b->job, b->part, b->multi, qos, &t))
		mfp_job_part_terms(b->job, t.part, t.qos, t.w_part, t.w_qos,
				   t.w_tres, t.tres_cnt);
}

/* JOB's objects: one per partition (that the request asks for) and QOS. */
static void _add_job(mfa_sprio_t *s, job_record_t *job)
{
	_build_t b = { .s = s, .job = job };
	part_record_t *p;
	list_itr_t *itr;

	b.multi = job->part_ptr_list != NULL;
	if (!b.multi) {
		if (!mfa_sprio_wants_part(s, job->part_ptr))
			return;
		mfa_job_each_qos(job, _add_obj, &b);
		return;
	}
	itr = list_iterator_create(job->part_ptr_list);
	while ((p = list_next(itr))) {
		if (!mfa_sprio_wants_part(s, p))
			continue;
		b.part = p;
		mfa_job_each_qos(job, _add_obj, &b);
	}
	list_iterator_destroy(itr);
}

list_t *mfp_factors_list(void *req, uid_t uid)
{
	mfa_sprio_t s;
	time_t now = time(NULL);
	job_record_t *job;
	list_itr_t *itr;
	list_t *jobs = mfa_job_list();

	mfa_sprio_begin(&s, req);
	mfp_conf_enter();       /* one set of settings for the whole list */
	if (jobs && list_count(jobs)) {
		itr = list_iterator_create(jobs);
		while ((job = list_next(itr))) {
			if (!mfp_job_listed(job, now) ||
			    !mfa_job_visible(job, uid) ||
			    !mfa_sprio_wants_job(&s, job))
				continue;
			_add_job(&s, job);
		}
		list_iterator_destroy(itr);
	}
	mfp_conf_leave();
	return mfa_sprio_end(&s);
}
