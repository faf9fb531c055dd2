/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <math.h>
#include <string.h>

#include <glib.h>

#include "age_factor.h"
#include "assoc_factor.h"
#include "job_size_factor.h"
#include "part_factor.h"
#include "priority.h"
#include "qos_factor.h"
#include "tres_factor.h"

void mf_prio_result_init(mf_prio_result_t *r, uint32_t tres_cnt)
{
	memset(r, 0, sizeof(*r));
	r->tres_cnt = tres_cnt;
	if (tres_cnt) {
		r->tres = g_new0(double, tres_cnt);
		r->w_tres = g_new0(double, tres_cnt);
	}
}

void mf_prio_result_bind(mf_prio_result_t *r, uint32_t tres_cnt, double *buf)
{
	memset(r, 0, sizeof(*r));
	r->borrowed = true;
	if (!tres_cnt || !buf)
		return;
	r->tres_cnt = tres_cnt;
	memset(buf, 0, sizeof(double) * 2 * tres_cnt);
	r->tres = buf;
	r->w_tres = buf + tres_cnt;
}

void mf_prio_result_clear(mf_prio_result_t *r)
{
	if (!r)
		return;
	if (!r->borrowed) {
		g_free(r->tres);
		g_free(r->w_tres);
	}
	memset(r, 0, sizeof(*r));
}

/* SRC into DST, the TRES arrays resized as needed and their contents
 * copied only if ARRAYS. */
static void _result_assign(mf_prio_result_t *dst, const mf_prio_result_t *src,
			   bool arrays)
{
	double *tres = dst->tres, *w_tres = dst->w_tres;
	uint32_t cnt = dst->tres_cnt;
	bool borrowed = dst->borrowed;

	if (!borrowed && cnt != src->tres_cnt) {
		g_free(tres);
		g_free(w_tres);
		cnt = src->tres_cnt;
		tres = cnt ? g_new0(double, cnt) : NULL;
		w_tres = cnt ? g_new0(double, cnt) : NULL;
	}
	*dst = *src;
	dst->tres = tres;
	dst->w_tres = w_tres;
	dst->tres_cnt = cnt;
	dst->borrowed = borrowed;
	if (arrays && src->tres_cnt && cnt) {
		uint32_t n = MIN(cnt, src->tres_cnt);

		memcpy(dst->tres, src->tres, sizeof(double) * n);
		memcpy(dst->w_tres, src->w_tres, sizeof(double) * n);
	}
}

void mf_prio_result_copy(mf_prio_result_t *dst, const mf_prio_result_t *src)
{
	_result_assign(dst, src, true);
}

uint32_t mf_part_max_priority(const mf_part_t *parts, uint32_t cnt)
{
	uint32_t max = 1;

	for (uint32_t i = 0; i < cnt; i++)
		if (parts[i].priority_job_factor > max)
			max = parts[i].priority_job_factor;
	return max;
}

/* A term of the sum: NaN counts as nothing. */
static double _term(double x)
{
	return isnan(x) ? 0.0 : x;
}

uint32_t mf_priority_sum(const mf_prio_result_t *r, double *sum,
			 bool *clamped)
{
	double s = _term(r->w_age) + _term(r->w_assoc) + _term(r->w_fs) +
		   _term(r->w_js) + _term(r->w_part) + _term(r->w_qos) +
		   _term(r->w_tres_sum) + (double)r->site - (double)r->nice;
	bool over = false;
	uint32_t prio;

	if (isnan(s))           /* e.g. +inf and -inf TRES weights */
		s = 0.0;
	if (sum)
		*sum = s;
	if (s < 1.0) {
		prio = 1;
	} else if (s >= (double)MF_PRIORITY_MAX + 1.0) {
		prio = MF_PRIORITY_MAX;
		over = true;
	} else {
		prio = (uint32_t)s;    /* truncated, as Slurm does */
	}
	if (clamped)
		*clamped = over;
	return prio;
}

/* The partition and TRES terms of R for PART. */
static void _part_terms(const mf_prio_config_t *cfg, const mf_prio_job_t *job,
			const mf_part_t *part, mf_prio_result_t *r)
{
	uint32_t n = 0;

	r->partition = part;
	r->part = 0.0;
	if (part && part->priority_job_factor && cfg->weight_part)
		r->part = mf_part_factor(part->priority_job_factor,
					 cfg->part_max_priority, cfg->flags);
	r->w_part = r->part * (double)cfg->weight_part;

	r->w_tres_sum = 0.0;
	if (cfg->weight_tres && cfg->tres && r->tres_cnt) {
		n = MIN(r->tres_cnt, cfg->tres->cnt);

		/* these two write the first n of each array */
		mf_tres_factors(job->tres_cnt, part ? part->tres_cnt : NULL,
				n, cfg->flags, r->tres);
		r->w_tres_sum = mf_tres_weigh(r->tres, cfg->weight_tres, n,
					      r->w_tres);
	}
	/* zero the rest one by one: a call to memset costs more than the
	 * few TRES a cluster has (this runs for every job every cycle) */
	for (uint32_t i = n; i < r->tres_cnt; i++) {
		r->tres[i] = 0.0;
		r->w_tres[i] = 0.0;
	}
}

static void _finish(mf_prio_result_t *r)
{
	r->priority = mf_priority_sum(r, &r->sum, &r->clamped);
}

uint32_t mf_priority_compute(const mf_prio_config_t *cfg,
			     const mf_prio_job_t *job, time_t now,
			     mf_prio_result_t *r)
{
	uint32_t tres_cnt = r->tres_cnt;
	double *tres = r->tres, *w_tres = r->w_tres;

	if (job->direct_prio && job->priority > 0) {
		memset(r, 0, sizeof(*r));
		r->tres_cnt = tres_cnt;
		r->tres = tres;
		r->w_tres = w_tres;
		if (tres_cnt) {
			memset(tres, 0, sizeof(double) * tres_cnt);
			memset(w_tres, 0, sizeof(double) * tres_cnt);
		}
		r->direct = true;
		r->partition = job->part;
		r->sum = (double)job->priority;
		r->priority = job->priority;
		return r->priority;
	}

	/* every field is set below, one by one: this runs for every job
	 * every cycle, and clearing the struct first costs a call to memset
	 * (the TRES arrays are _part_terms's) */
	r->age = r->assoc = r->fs = r->js = r->qos = 0.0;
	r->direct = false;
	if (cfg->weight_age)
		r->age = mf_age_factor(job->accrue_time, now, cfg->max_age);
	if (cfg->weight_fs)
		r->fs = _term(job->fs_factor);
	if (cfg->weight_js) {
		uint32_t limit = 1;

		if (job->time_limit != MF_NO_VAL)
			limit = job->time_limit;
		else if (job->part)
			limit = job->part->max_time;
		r->js = mf_job_size_factor(job->min_nodes, job->cpu_cnt, limit,
					   cfg->node_count, cfg->cluster_cpus,
					   cfg->favor_small, cfg->flags,
					   cfg->release);
	}
	if (job->has_assoc && cfg->weight_assoc)
		r->assoc = mf_assoc_factor(job->assoc_priority,
					   cfg->assoc_max_priority, cfg->flags);
	if (job->has_qos && job->qos_priority && cfg->weight_qos)
		r->qos = mf_qos_factor(job->qos_priority,
				       cfg->qos_max_priority, cfg->flags);

	r->w_age = r->age * (double)cfg->weight_age;
	r->w_assoc = r->assoc * (double)cfg->weight_assoc;
	r->w_fs = r->fs * (double)cfg->weight_fs;
	r->w_js = r->js * (double)cfg->weight_js;
	r->w_qos = r->qos * (double)cfg->weight_qos;
	r->site = job->site_factor;
	r->nice = job->nice;
	_part_terms(cfg, job, job->part, r);
	_finish(r);
	return r->priority;
}

uint32_t mf_priority_in_part(const mf_prio_config_t *cfg,
			     const mf_prio_job_t *job,
			     const mf_prio_result_t *base,
			     const mf_part_t *part, mf_prio_result_t *r)
{
	if (base->direct) {
		mf_prio_result_copy(r, base);
		r->partition = part;
		return r->priority;
	}
	/* _part_terms rewrites every TRES entry: copying them is wasted */
	_result_assign(r, base, false);
	_part_terms(cfg, job, part, r);
	/* Slurm takes the normalized factor here even for a partition with
	 * PriorityJobFactor 0, which is 0 all the same. */
	_finish(r);
	return r->priority;
}

uint32_t mf_priority_with_qos(const mf_prio_config_t *cfg,
			      uint32_t qos_priority, mf_prio_result_t *r)
{
	if (r->direct || !qos_priority || !cfg->weight_qos)
		return r->priority;
	r->qos = mf_qos_factor(qos_priority, cfg->qos_max_priority,
			       cfg->flags);
	r->w_qos = r->qos * (double)cfg->weight_qos;
	_finish(r);
	return r->priority;
}

uint32_t mf_priority_incr_only(uint32_t flags, uint32_t old_prio,
			       uint32_t new_prio)
{
	if ((flags & MF_FLAG_INCR_ONLY) && old_prio > new_prio)
		return old_prio;
	return new_prio;
}

void mf_parts_sort_by_tier(const mf_part_t **parts, uint32_t cnt)
{
	/* insertion sort: stable, and lists are short */
	for (uint32_t i = 1; i < cnt; i++) {
		const mf_part_t *p = parts[i];
		uint32_t j = i;

		while (j > 0 && parts[j - 1]->priority_tier < p->priority_tier) {
			parts[j] = parts[j - 1];
			j--;
		}
		parts[j] = p;
	}
}
