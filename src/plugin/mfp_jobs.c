/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mfp_jobs: job priorities through the core (src/core/priority.h), and the
 * factors list sprio asks for.
 *
 * Slurm keeps a job's weighted factors in job_ptr->prio_factors (sprio and
 * the QOS usage threshold read them) and, for a job eligible in several
 * partitions, one priority per partition in job_ptr->priority_array, in the
 * order of job_ptr->part_ptr_list sorted by PriorityTier with slurmctld's
 * own comparator.
 */
#include <math.h>

#include "mfp_internal.h"
#include "mfp_tree.h"

#include "src/core/part_factor.h"
#include "src/core/tres_factor.h"

static void _fill_part(mf_part_t *p, part_record_t *part_ptr);
static void _job_tres(job_record_t *job_ptr, uint64_t *tres, uint32_t cnt);
static double _job_fs_factor(job_record_t *job_ptr);
static void _store_factors(job_record_t *job_ptr, const mf_prio_result_t *r,
			   uint32_t tres_cnt);
static void _clear_factors(job_record_t *job_ptr);
static bool _visible(job_record_t *job_ptr, uid_t uid);
static void _filter_job(job_record_t *job_ptr,
			priority_factors_request_msg_t *req,
			List part_filter, List ret_list);
static int _find_u32(void *x, void *key);
static int _find_ptr(void *x, void *key);

/* list_find_first: the uint32_t at X equals the one at KEY. */
static int _find_u32(void *x, void *key)
{
	return *(uint32_t *) x == *(uint32_t *) key;
}

/* list_find_first: X is KEY. */
static int _find_ptr(void *x, void *key)
{
	return x == key;
}

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

static void _clear_factors(job_record_t *job_ptr)
{
	if (!job_ptr->prio_factors)
		return;
	xfree(job_ptr->prio_factors->tres_weights);
	xfree(job_ptr->prio_factors->priority_tres);
	memset(job_ptr->prio_factors, 0, sizeof(priority_factors_object_t));
}

/* Keep R's weighted factors where sprio and slurmctld read them. */
static void _store_factors(job_record_t *job_ptr, const mf_prio_result_t *r,
			   uint32_t tres_cnt)
{
	priority_factors_object_t *pf;

	if (!job_ptr->prio_factors)
		job_ptr->prio_factors =
			xmalloc(sizeof(priority_factors_object_t));
	else
		_clear_factors(job_ptr);
	pf = job_ptr->prio_factors;
	pf->priority_age = r->w_age;
	pf->priority_assoc = r->w_assoc;
	pf->priority_fs = r->w_fs;
	pf->priority_js = r->w_js;
	pf->priority_part = r->w_part;
	pf->priority_qos = r->w_qos;
	pf->priority_site = job_ptr->site_factor;
	pf->nice = job_ptr->details ? job_ptr->details->nice : NICE_OFFSET;
	if (mfp_conf.weight_tres && tres_cnt) {
		pf->tres_cnt = tres_cnt;
		pf->priority_tres = xcalloc(tres_cnt, sizeof(double));
		pf->tres_weights = xcalloc(tres_cnt, sizeof(double));
		memcpy(pf->tres_weights, mfp_conf.weight_tres,
		       sizeof(double) * tres_cnt);
		if (r->w_tres)
			memcpy(pf->priority_tres, r->w_tres,
			       sizeof(double) * MIN(tres_cnt, r->tres_cnt));
	}
}

uint32_t mfp_job_priority(job_record_t *job_ptr, time_t now)
{
	assoc_mgr_lock_t locks = { .assoc = READ_LOCK, .qos = READ_LOCK };
	uint32_t tres_cnt = mfp_conf.tres ? mfp_conf.tres->cnt : 0;
	uint64_t job_tres[tres_cnt ? tres_cnt : 1];
	mf_prio_config_t cfg = { 0 };
	mf_prio_job_t job = { 0 };
	mf_prio_result_t r;
	mf_part_t part;
	struct job_details *d = job_ptr->details;
	uint32_t prio;

	if (job_ptr->direct_set_prio && job_ptr->priority > 0) {
		/* an administrator's value stands, with no factors */
		_clear_factors(job_ptr);
		return job_ptr->priority;
	}
	if (!d) {
		error("mfprio: %pJ has no details: priority 0", job_ptr);
		_clear_factors(job_ptr);
		return 0;
	}

	cfg.weight_age = mfp_conf.weight_age;
	cfg.weight_assoc = mfp_conf.weight_assoc;
	cfg.weight_fs = mfp_conf.weight_fs;
	cfg.weight_js = mfp_conf.weight_js;
	cfg.weight_part = mfp_conf.weight_part;
	cfg.weight_qos = mfp_conf.weight_qos;
	cfg.tres = mfp_conf.tres;
	cfg.weight_tres = mfp_conf.weight_tres;
	cfg.max_age = mfp_conf.max_age;
	cfg.favor_small = mfp_conf.favor_small;
	cfg.flags = mfp_conf.mf_flags;
	cfg.cluster_cpus = cluster_cpus;
	cfg.node_count = node_record_count;
	cfg.part_max_priority = part_max_priority ? part_max_priority : 1;
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

	mf_prio_result_init(&r, tres_cnt);
	assoc_mgr_lock(&locks);
	if (job_ptr->qos_ptr) {
		job.has_qos = true;
		job.qos_priority = job_ptr->qos_ptr->priority;
	}
	if (job_ptr->assoc_ptr) {
		job.has_assoc = true;
		job.assoc_priority = job_ptr->assoc_ptr->priority;
	}
	if (mfp_conf.weight_fs)
		job.fs_factor = _job_fs_factor(job_ptr);
	assoc_mgr_unlock(&locks);

	prio = mf_priority_compute(&cfg, &job, now, &r);
	if (r.clamped)
		error("mfprio: %pJ priority %.0f is beyond 32 bits; using "
		      "%u", job_ptr, r.sum, prio);
	_store_factors(job_ptr, &r, tres_cnt);

	if (job_ptr->part_ptr_list) {
		int n = list_count(job_ptr->part_ptr_list), i = 0;
		part_record_t *p;
		ListIterator itr;
		mf_prio_result_t pr;

		if (!job_ptr->priority_array)
			job_ptr->priority_array = xcalloc(n + 1,
							  sizeof(uint32_t));
		/* slurmctld's order: its own tier sort of the job's list */
		list_sort(job_ptr->part_ptr_list, priority_sort_part_tier);
		mf_prio_result_init(&pr, tres_cnt);
		itr = list_iterator_create(job_ptr->part_ptr_list);
		while ((p = list_next(itr))) {
			mf_part_t mp;
			uint32_t pp;

			_fill_part(&mp, p);
			pp = mf_priority_in_part(&cfg, &job, &r, &mp, &pr);
			job_ptr->priority_array[i] = mf_priority_incr_only(
				cfg.flags, job_ptr->priority_array[i], pp);
			log_flag(PRIO, "mfprio: %pJ in %s: %u", job_ptr,
				 p->name, job_ptr->priority_array[i]);
			i++;
		}
		list_iterator_destroy(itr);
		mf_prio_result_clear(&pr);
	}
	log_flag(PRIO, "mfprio: %pJ age %.2f assoc %.2f fs %.2f js %.2f part "
		 "%.2f qos %.2f tres %.2f site %"PRId64" nice %"PRId64" = %u",
		 job_ptr, r.w_age, r.w_assoc, r.w_fs, r.w_js, r.w_part,
		 r.w_qos, r.w_tres_sum, r.site, r.nice, prio);
	mf_prio_result_clear(&r);
	return prio;
}

int mfp_job_reprioritize(void *x, void *now_ptr)
{
	job_record_t *job_ptr = x;
	uint32_t prio;

	/* held jobs keep 0; running ones keep theirs unless asked */
	if (job_ptr->priority == 0 || IS_JOB_POWER_UP_NODE(job_ptr) ||
	    (!IS_JOB_PENDING(job_ptr) &&
	     !(mfp_conf.slurm_flags & PRIORITY_FLAGS_CALCULATE_RUNNING)))
		return 0;
	prio = mfp_job_priority(job_ptr, *(time_t *) now_ptr);
	prio = mf_priority_incr_only(mfp_conf.mf_flags, job_ptr->priority,
				     prio);
	if (prio != job_ptr->priority || !(mfp_conf.mf_flags &
					   MF_FLAG_INCR_ONLY)) {
		job_ptr->priority = prio;
		last_job_update = time(NULL);
	}
	return 0;
}

/* PrivateData=jobs: may UID see JOB_PTR? */
static bool _visible(job_record_t *job_ptr, uid_t uid)
{
	if (!(slurm_conf.private_data & PRIVATE_DATA_JOBS) ||
	    job_ptr->user_id == uid || validate_operator(uid))
		return true;
	if (slurm_mcs_get_privatedata() == 0)
		return assoc_mgr_is_user_acct_coord(acct_db_conn, uid,
						    job_ptr->account);
	if (slurm_mcs_get_privatedata() == 1)
		return mcs_g_check_mcs_label(uid, job_ptr->mcs_label,
					     false) == 0;
	return true;
}

/* Append JOB_PTR's factors, one object per requested partition. */
static void _filter_job(job_record_t *job_ptr,
			priority_factors_request_msg_t *req,
			List part_filter, List ret_list)
{
	priority_factors_object_t *obj;
	part_record_t *p;
	ListIterator itr;

	if (req->job_id_list &&
	    !list_find_first(req->job_id_list, _find_u32,
			     &job_ptr->job_id))
		return;
	if (req->uid_list &&
	    !list_find_first(req->uid_list, _find_u32,
			     &job_ptr->user_id))
		return;
	/* a job whose partition went away has nothing to show */
	if (!job_ptr->part_ptr && !job_ptr->part_ptr_list)
		return;

	if (!job_ptr->part_ptr_list) {
		if (part_filter &&
		    !list_find_first(part_filter, _find_ptr,
				     job_ptr->part_ptr))
			return;
		obj = xmalloc(sizeof(*obj));
		if (job_ptr->direct_set_prio)
			obj->direct_prio = job_ptr->priority;
		else if (job_ptr->prio_factors)
			slurm_copy_priority_factors_object(
				obj, job_ptr->prio_factors);
		obj->job_id = job_ptr->job_id;
		obj->partition = job_ptr->part_ptr->name;
		obj->user_id = job_ptr->user_id;
		list_append(ret_list, obj);
		return;
	}

	itr = list_iterator_create(job_ptr->part_ptr_list);
	while ((p = list_next(itr))) {
		if (part_filter &&
		    !list_find_first(part_filter, _find_ptr, p))
			continue;
		obj = xmalloc(sizeof(*obj));
		if (job_ptr->prio_factors)
			slurm_copy_priority_factors_object(
				obj, job_ptr->prio_factors);
		obj->priority_part = mf_part_factor(
			p->priority_job_factor,
			part_max_priority ? part_max_priority : 1,
			mfp_conf.mf_flags) * (double) mfp_conf.weight_part;
		if (obj->priority_tres && obj->tres_cnt) {
			uint64_t tres[obj->tres_cnt];

			_job_tres(job_ptr, tres, obj->tres_cnt);
			mf_tres_factors(tres, p->tres_cnt, obj->tres_cnt,
					mfp_conf.mf_flags, obj->priority_tres);
			(void) mf_tres_weigh(obj->priority_tres,
					     obj->tres_weights, obj->tres_cnt,
					     obj->priority_tres);
		}
		obj->job_id = job_ptr->job_id;
		obj->partition = p->name;
		obj->user_id = job_ptr->user_id;
		list_append(ret_list, obj);
	}
	list_iterator_destroy(itr);
}

List mfp_factors_list(priority_factors_request_msg_t *req, uid_t uid)
{
	slurmctld_lock_t job_read_lock = { .job = READ_LOCK,
					   .node = READ_LOCK,
					   .part = READ_LOCK };
	List ret_list = NULL, part_filter = NULL;
	time_t now = time(NULL);
	job_record_t *job_ptr;
	ListIterator itr;

	lock_slurmctld(job_read_lock);
	if (req->partitions) {
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
	if (job_list && list_count(job_list)) {
		ret_list = list_create(slurm_destroy_priority_factors_object);
		itr = list_iterator_create(job_list);
		while ((job_ptr = list_next(itr))) {
			time_t eligible;

			if (!IS_JOB_PENDING(job_ptr) &&
			    !(mfp_conf.slurm_flags &
			      PRIORITY_FLAGS_CALCULATE_RUNNING))
				continue;
			if (IS_JOB_REVOKED(job_ptr) || !job_ptr->details)
				continue;
			eligible = (mfp_conf.slurm_flags &
				    PRIORITY_FLAGS_ACCRUE_ALWAYS) ?
				job_ptr->details->submit_time :
				job_ptr->details->begin_time;
			if (!eligible || eligible > now)
				continue;
			if (job_ptr->priority == 0)   /* held */
				continue;
			if (!_visible(job_ptr, uid))
				continue;
			_filter_job(job_ptr, req, part_filter, ret_list);
		}
		list_iterator_destroy(itr);
		if (!list_count(ret_list))
			FREE_NULL_LIST(ret_list);
	}
	unlock_slurmctld(job_read_lock);
	FREE_NULL_LIST(part_filter);
	return ret_list;
}
