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

/*
 * The jobs pass through a short pipeline: when a job comes in, the CPU is
 * asked for its record; MFP_SPRIO_AHEAD jobs later for what the record
 * points to (details, figures), as many again later for the figures' TRES
 * arrays, and as many again later the job is looked at.  With tens of
 * thousands of jobs these are seldom in the cache, and waiting for them
 * one after the other was most of a list's time; in the pipeline the waits
 * overlap with each other and with the walk of slurmctld's job list.
 */
#define MFP_SPRIO_AHEAD 4
#define MFP_SPRIO_RING (4 * MFP_SPRIO_AHEAD)

typedef struct {
	mfa_sprio_t *s;
	uid_t uid;
	time_t now;
	uint32_t flags;                     /* PriorityFlags, read once */
	job_record_t *ring[MFP_SPRIO_RING]; /* the jobs in the pipeline */
	size_t in;                          /* jobs fed so far */
} _pipe_t;

/* The ring's job K places before the one fed last, or NULL. */
static job_record_t *_back(const _pipe_t *p, size_t k)
{
	return p->in > k ? p->ring[(p->in - 1 - k) % MFP_SPRIO_RING] : NULL;
}

/* mfa_sprio_each_job: JOB (NULL: none, to drain) into the pipeline. */
static void _feed(job_record_t *job, void *arg)
{
	_pipe_t *p = arg;
	job_record_t *j;

	p->ring[p->in++ % MFP_SPRIO_RING] = job;
	if (job)
		mfa_sprio_prefetch(job, 0);
	if ((j = _back(p, MFP_SPRIO_AHEAD)))
		mfa_sprio_prefetch(j, 1);
	if ((j = _back(p, 2 * MFP_SPRIO_AHEAD)))
		mfa_sprio_prefetch(j, 2);
	j = _back(p, 3 * MFP_SPRIO_AHEAD);
	if (j && mfp_job_listed(j, p->now, p->flags) &&
	    mfa_job_visible(j, p->uid) && mfa_sprio_wants_job(p->s, j))
		_add_job(p->s, j);
}

list_t *mfp_factors_list(void *req, uid_t uid)
{
	mfa_sprio_t s;
	_pipe_t p = { .s = &s, .uid = uid, .now = time(NULL) };
	int k;

	mfa_sprio_begin(&s, req);
	mfp_conf_enter();       /* one set of settings for the whole list */
	p.flags = mfp_conf.slurm_flags;
	mfa_sprio_each_job(&s, _feed, &p);
	for (k = 0; k < 3 * MFP_SPRIO_AHEAD; k++)
		_feed(NULL, &p);
	mfp_conf_leave();
	return mfa_sprio_end(&s);
}
