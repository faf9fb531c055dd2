/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mfp_jobs: job priorities through the core (the contract is in
 * mfp_jobs.h).
 *
 * slurmctld keeps a job's weighted factors (sprio and the QOS usage
 * threshold read them) and, for a job eligible in several partitions (or,
 * from 24.11, asking for several QOS), one priority per partition and QOS,
 * in the order of job_ptr->part_ptr_list sorted by PriorityTier with
 * slurmctld's own comparator.  Where a release keeps them is the
 * accessors' business (mfa_factors_store, mfa_job_prio_array).
 */
#include <math.h>

#include "mfp_jobs.h"
#include "mfp_settings.h"
#include "mfp_tree.h"

#include "src/core/part_factor.h"
#include "src/core/qos_factor.h"
#include "src/core/tres_factor.h"

static void _fill_part(mf_part_t *p, part_record_t *part_ptr);
static void _job_tres(job_record_t *job_ptr, uint64_t *tres, uint32_t cnt);
static double _job_fs_factor(job_record_t *job_ptr);
static void _prio_array(job_record_t *job_ptr, const mf_prio_config_t *cfg,
			const mf_prio_job_t *job, const mf_prio_result_t *r,
			bool locked);
static uint32_t _job_priority(job_record_t *job_ptr, time_t now,
			      bool locked);

static void _fill_part(mf_part_t *p, part_record_t *part_ptr)
{
	memset(p, 0, sizeof(*p));
	p->name = part_ptr->name;
	p->priority_job_factor = part_ptr->priority_job_factor;
	p->priority_tier = part_ptr->priority_tier;
	p->max_time = part_ptr->max_time;
	p->tres_cnt = part_ptr->tres_cnt;
	p->billing_weights = part_ptr->billing_weights;
}

/* The job's TRES: allocated where it has them, else requested. */
static void _job_tres(job_record_t *job_ptr, uint64_t *tres, uint32_t cnt)
{
	for (uint32_t i = 0; i < cnt; i++) {
		tres[i] = 0;
		if (job_ptr->tres_alloc_cnt &&
		    job_ptr->tres_alloc_cnt[i] != NO_CONSUME_VAL64)
			tres[i] = job_ptr->tres_alloc_cnt[i];
		else if (job_ptr->tres_req_cnt)
			tres[i] = job_ptr->tres_req_cnt[i];
	}
}

/*
 * The job's fair-share factor from its association's current figures:
 * Fair Tree's rank, else 2^(-UE/S/damp) of the association (of its
 * fair-share parent for FairShare=parent).  Caller holds the assoc read
 * lock.
 */
static double _job_fs_factor(job_record_t *job_ptr)
{
	slurmdb_assoc_rec_t *assoc = job_ptr->assoc_ptr, *fs_assoc;

	if (!mfp_conf.calc_fairshare)
		return 0.0;
	if (!assoc || !assoc->usage) {
		error("mfprio: %pJ has no association: fair-share factor 0",
		      job_ptr);
		return 0.0;
	}
	fs_assoc = assoc;
	if (assoc->shares_raw == SLURMDB_FS_USE_PARENT &&
	    assoc->usage->fs_assoc_ptr)
		fs_assoc = assoc->usage->fs_assoc_ptr;
	if (fuzzy_equal(fs_assoc->usage->usage_efctv, NO_VAL))
		mfp_tree_set_one(fs_assoc, mfp_conf.fs.algo);
	if (mfp_conf.fs.algo == MF_FS_FAIR_TREE)
		return assoc->usage->fs_factor;
	return mfp_calc_fs_factor(fs_assoc->usage->usage_efctv,
				  fs_assoc->usage->shares_norm);
}

uint32_t mfp_job_priority(job_record_t *job_ptr, time_t now)
{
	return _job_priority(job_ptr, now, false);
}

/*
 * The work of mfp_job_priority(); LOCKED: the caller holds assoc_mgr's
 * assoc and QOS read locks already (the decay pass takes them once a
 * slice rather than twice a job).
 */
static uint32_t _job_priority(job_record_t *job_ptr, time_t now,
			      bool locked)
{
	assoc_mgr_lock_t locks = { .assoc = READ_LOCK, .qos = READ_LOCK };
	uint32_t tres_cnt = mfp_conf.prio.tres ? mfp_conf.prio.tres->cnt : 0;
	uint64_t job_tres[tres_cnt ? tres_cnt : 1];
	double r_buf[2 * (tres_cnt ? tres_cnt : 1)];
	mf_prio_config_t cfg;
	mf_prio_job_t job = { 0 };
	mf_prio_result_t r;
	mf_part_t part;
	job_details_t *d = job_ptr->details;
	uint32_t prio;

	if (job_ptr->direct_set_prio && job_ptr->priority > 0) {
		/* an administrator's value stands, with no factors */
		mfa_factors_clear(job_ptr);
		return job_ptr->priority;
	}
	if (!d) {
		error("mfprio: %pJ has no details: priority 0", job_ptr);
		mfa_factors_clear(job_ptr);
		return 0;
	}

	/* the settings as they are, with the cluster's live figures */
	cfg = mfp_conf.prio;
	cfg.cluster_cpus = mfa_cluster_cpus();
	cfg.node_count = mfa_node_count();
	cfg.part_max_priority = mfa_part_max_priority();
	cfg.qos_max_priority = g_qos_max_priority;
	cfg.assoc_max_priority = g_assoc_max_priority;

	job.job_id = job_ptr->job_id;
	job.priority = 1;        /* not held: slurmctld decides on holds */
	job.submit_time = d->submit_time;
	job.begin_time = d->begin_time;
	job.accrue_time = d->accrue_time;
	job.min_nodes = d->min_nodes;
	if (job_ptr->total_cpus)
		job.cpu_cnt = job_ptr->total_cpus;
	else if (d->max_cpus != NO_VAL)
		job.cpu_cnt = d->max_cpus;
	else
		job.cpu_cnt = d->min_cpus;
	job.time_limit = job_ptr->time_limit;
	if (job_ptr->part_ptr) {
		_fill_part(&part, job_ptr->part_ptr);
		job.part = &part;
	}
	job.nice = (int64_t) d->nice - NICE_OFFSET;
	job.site_factor = (int64_t) job_ptr->site_factor - NICE_OFFSET;
	if (tres_cnt) {
		_job_tres(job_ptr, job_tres, tres_cnt);
		job.tres_cnt = job_tres;
	}

	mf_prio_result_bind(&r, tres_cnt, r_buf);
	if (!locked)
		assoc_mgr_lock(&locks);
	if (job_ptr->qos_ptr) {
		job.has_qos = true;
		job.qos_priority = job_ptr->qos_ptr->priority;
	}
	if (job_ptr->assoc_ptr) {
		job.has_assoc = true;
		job.assoc_priority = job_ptr->assoc_ptr->priority;
	}
	if (mfp_conf.prio.weight_fs)
		job.fs_factor = _job_fs_factor(job_ptr);
	if (!locked)
		assoc_mgr_unlock(&locks);

	prio = mf_priority_compute(&cfg, &job, now, &r);
	if (r.clamped)
		error("mfprio: %pJ priority %.0f is beyond 32 bits; using "
		      "%u", job_ptr, r.sum, prio);
	mfa_factors_store(job_ptr, &r, mfp_conf.prio.weight_tres, tres_cnt);
	_prio_array(job_ptr, &cfg, &job, &r, locked);
	log_flag(PRIO, "mfprio: %pJ age %.2f assoc %.2f fs %.2f js %.2f part "
		 "%.2f qos %.2f tres %.2f site %"PRId64" nice %"PRId64" = %u",
		 job_ptr, r.w_age, r.w_assoc, r.w_fs, r.w_js, r.w_part,
		 r.w_qos, r.w_tres_sum, r.site, r.nice, prio);
	mf_prio_result_clear(&r);
	return prio;
}

bool mfp_job_priced(job_record_t *job_ptr)
{
	/* held jobs keep 0; running ones keep theirs unless asked */
	if (job_ptr->priority == 0 || IS_JOB_POWER_UP_NODE(job_ptr))
		return false;
	return IS_JOB_PENDING(job_ptr) ||
		(mfp_conf.slurm_flags & PRIORITY_FLAGS_CALCULATE_RUNNING);
}

int mfp_job_reprioritize(void *x, void *arg)
{
	job_record_t *job_ptr = x;
	mfp_pass_t *pass = arg;
	uint32_t prio;

	if (!mfp_job_priced(job_ptr)) {
		pass->skipped++;
		return 0;
	}
	pass->recomputed++;
	prio = _job_priority(job_ptr, pass->now, pass->assoc_locked);
	prio = mf_priority_incr_only(mfp_conf.prio.flags, job_ptr->priority,
				     prio);
	/* only a new value is news for the job list's readers */
	if (prio != job_ptr->priority) {
		pass->changed++;
		job_ptr->priority = prio;
		mfa_jobs_changed(pass->now);
	}
	return 0;
}

typedef struct {
	const mf_prio_config_t *cfg;
	job_record_t *job_ptr;
	const mf_prio_result_t *in_part;  /* the job's figures in a partition */
	mf_prio_result_t scratch;
	uint32_t *slot;                   /* the next slot to write */
} _qos_walk_t;

/* mfa_job_each_qos: the priority in one partition with one QOS. */
static void _one_qos(slurmdb_qos_rec_t *qos, void *arg)
{
	_qos_walk_t *w = arg;
	uint32_t prio;

	mf_prio_result_copy(&w->scratch, w->in_part);
	prio = qos ? mf_priority_with_qos(w->cfg, qos->priority, &w->scratch) :
		w->scratch.priority;
	*w->slot = mf_priority_incr_only(w->cfg->flags, *w->slot, prio);
	log_flag(PRIO, "mfprio: %pJ in %s%s%s: %u", w->job_ptr,
		 w->in_part->partition ? w->in_part->partition->name : "?",
		 qos ? "/" : "", qos ? qos->name : "", *w->slot);
	w->slot++;
}

/*
 * The job's priority in each of its partitions (and, on releases where a
 * job may ask for several QOS, with each QOS), in slurmctld's order: its
 * partitions by PriorityTier with slurmctld's own comparator, QOS inner.
 * Caller holds the job write lock.
 */
static void _prio_array(job_record_t *job_ptr, const mf_prio_config_t *cfg,
			const mf_prio_job_t *job, const mf_prio_result_t *r,
			bool locked)
{
	assoc_mgr_lock_t locks = { .qos = READ_LOCK };
	int nparts = job_ptr->part_ptr_list ?
		list_count(job_ptr->part_ptr_list) : 0;
	int nqos = mfa_job_qos_count(job_ptr);
	_qos_walk_t w = { .cfg = cfg, .job_ptr = job_ptr };
	mf_prio_result_t pr;
	uint32_t cnt = r->tres_cnt ? r->tres_cnt : 1;
	double pr_buf[2 * cnt], scratch_buf[2 * cnt];

	if (!nparts && !nqos) {
		(void) mfa_job_prio_array(job_ptr, 0);
		return;
	}
	w.slot = mfa_job_prio_array(job_ptr, MAX(nparts, 1) * MAX(nqos, 1));
	mf_prio_result_bind(&pr, r->tres_cnt, pr_buf);
	mf_prio_result_bind(&w.scratch, r->tres_cnt, scratch_buf);
	if (!locked)
		assoc_mgr_lock(&locks);
	if (!nparts) {
		w.in_part = r;
		mfa_job_each_qos(job_ptr, _one_qos, &w);
	} else {
		part_record_t *p;
		list_itr_t *itr;

		itr = list_iterator_create(job_ptr->part_ptr_list);
		while ((p = list_next(itr))) {
			mf_part_t mp;

			_fill_part(&mp, p);
			(void) mf_priority_in_part(cfg, job, r, &mp, &pr);
			pr.partition = NULL;   /* mp does not outlive this */
			w.in_part = &pr;
			mfa_job_each_qos(job_ptr, _one_qos, &w);
			log_flag(PRIO, "mfprio: %pJ in partition %s done",
				 job_ptr, p->name);
		}
		list_iterator_destroy(itr);
	}
	if (!locked)
		assoc_mgr_unlock(&locks);
	mf_prio_result_clear(&w.scratch);
	mf_prio_result_clear(&pr);
}

bool mfp_job_listed(job_record_t *job_ptr, time_t now, uint32_t flags)
{
	bool running = flags & PRIORITY_FLAGS_CALCULATE_RUNNING;
	time_t eligible;

	if (!IS_JOB_PENDING(job_ptr) && !running)
		return false;
	if (IS_JOB_REVOKED(job_ptr) || !job_ptr->details)
		return false;
	eligible = (flags & PRIORITY_FLAGS_ACCRUE_ALWAYS) ?
		job_ptr->details->submit_time : job_ptr->details->begin_time;
	if (!eligible || eligible > now)
		return false;
	if (job_ptr->priority == 0)   /* held */
		return false;
	/* a job whose partition went away has nothing to show */
	return job_ptr->part_ptr || job_ptr->part_ptr_list;
}

void mfp_job_part_terms(job_record_t *job_ptr, part_record_t *part_ptr,
			slurmdb_qos_rec_t *qos, double *w_part, double *w_qos,
			double *w_tres, uint32_t tres_cnt)
{
	if (part_ptr) {
		*w_part = mf_part_factor(part_ptr->priority_job_factor,
					 mfa_part_max_priority(),
					 mfp_conf.prio.flags) *
			(double) mfp_conf.prio.weight_part;
		if (w_tres && tres_cnt && mfp_conf.prio.weight_tres) {
			uint64_t tres[tres_cnt];

			_job_tres(job_ptr, tres, tres_cnt);
			mf_tres_factors(tres, part_ptr->tres_cnt, tres_cnt,
					mfp_conf.prio.flags, w_tres);
			(void) mf_tres_weigh(w_tres, mfp_conf.prio.weight_tres,
					     tres_cnt, w_tres);
		}
	}
	if (qos && qos->priority && mfp_conf.prio.weight_qos)
		*w_qos = mf_qos_factor(qos->priority, g_qos_max_priority,
				       mfp_conf.prio.flags) *
			(double) mfp_conf.prio.weight_qos;
}
