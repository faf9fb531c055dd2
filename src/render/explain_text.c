/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * explain_text: `mfprio priority --explain JOBID` as text, from the rows
 * of priority_explain.h (the JSON of the same rows is priority_json.c).
 */
#include <stdio.h>
#include <string.h>

#include "exit_status.h"
#include "explain_text.h"
#include "priority_flags.h"
#include "release.h"

static void _fmt_duration(char *buf, size_t n, uint64_t secs)
{
	snprintf(buf, n, "%llu-%02llu:%02llu:%02llu",
		 (unsigned long long)(secs / 86400),
		 (unsigned long long)(secs / 3600 % 24),
		 (unsigned long long)(secs / 60 % 60),
		 (unsigned long long)(secs % 60));
}

/* Where the release changes the job size factor of PJ, say how. */
static const char *_js_release_note(const mf_prio_config_t *cfg,
				    const mf_prio_job_t *pj)
{
	bool guarded = mf_release_js_guarded(cfg->release);

	if (!cfg->weight_js)
		return "";
	if (!cfg->node_count || !cfg->cluster_cpus)
		return guarded ? "; no node or CPU: 0 (from Slurm 23.02)"
			       : "; no node or CPU (Slurm 22.05: what the "
				 "formula gives)";
	if (cfg->favor_small &&
	    !(cfg->flags & MF_FLAG_SMALL_RELATIVE_TO_TIME) &&
	    pj->min_nodes > cfg->node_count)
		return guarded ? "; more nodes than the cluster: node term 0 "
				 "(from Slurm 23.02)"
			       : "; more nodes than the cluster: node term "
				 "wraps, held at 1 (Slurm 22.05)";
	return "";
}


/* The header of the explanation of job J: who, where, which release and
 * which what-if settings.  Returns nothing. */
static void _explain_head(const mf_prun_ctx_t *c, const mf_prun_opts_t *o,
			  const mf_prun_job_t *j,
			  FILE *out)
{
	const mf_prio_job_t *pj = &j->job;
	const mf_job_line_t *l = j->line;
	char rel[8];

	if (l->job_id_str && strcmp(l->job_id_str, l->id_text))
		fprintf(out, "Job %s (JobId %u)", l->job_id_str, pj->job_id);
	else
		fprintf(out, "Job %u", pj->job_id);
	fprintf(out, ": user %s, account %s, QOS %s, partition "
		"%s, state %s, at %ld\n", l->user,
		l->account, l->qos ? l->qos : "(none)",
		pj->part ? pj->part->name : "(none)", l->state,
		(long)o->now);
	fprintf(out, "  as Slurm %s computes it (%s)\n",
		mf_release_name(c->cfg.release, rel), c->rel.source);
	for (guint i = 0; o->sets && i < o->sets->len; i++) {
		const mf_conf_pair_t *p = o->sets->pdata[i];

		fprintf(out, "  %s %s=%s (what-if, in place of the "
			"conf's)\n", p->file, p->key, p->value);
	}
}

/* What factor F of job J is made of: the text's last column.  Returns
 * nothing. */
static void _from(const mf_prun_ctx_t *c, const mf_prun_opts_t *o,
		  const mf_prun_job_t *j, const mf_expl_factor_t *f, FILE *out)
{
	const mf_prio_config_t *cfg = &c->cfg;
	const mf_prio_job_t *pj = &j->job;
	char dur[64], dur2[64];
	uint32_t limit;

	switch (f->kind) {
	case MF_EXPL_AGE:
		if (pj->accrue_time && o->now > pj->accrue_time)
			_fmt_duration(dur, sizeof(dur),
				      (uint64_t)(o->now - pj->accrue_time));
		else
			snprintf(dur, sizeof(dur), "0");
		_fmt_duration(dur2, sizeof(dur2), cfg->max_age);
		fprintf(out, "waited %s since accrue time %ld%s; "
			"PriorityMaxAge %s", dur, (long)pj->accrue_time,
			pj->accrue_time ? "" : " (not accruing)", dur2);
		break;
	case MF_EXPL_ASSOC:
		fprintf(out, "association priority %u of highest %u%s",
			pj->assoc_priority, cfg->assoc_max_priority,
			(cfg->flags & MF_FLAG_NO_NORMAL_ASSOC) ?
			" (NO_NORMAL_ASSOC: raw)" : "");
		break;
	case MF_EXPL_FS:
		fprintf(out, "%s/%s, %s", j->line->account, j->line->user,
			j->fs_note);
		break;
	case MF_EXPL_JS:
		limit = pj->time_limit != MF_NO_VAL ? pj->time_limit :
			(pj->part ? pj->part->max_time : 1);
		fprintf(out, "%u node(s), %u CPU(s) of %u node(s), %u CPUs%s%s",
			pj->min_nodes, pj->cpu_cnt, cfg->node_count,
			cfg->cluster_cpus,
			cfg->favor_small ? "; PriorityFavorSmall" : "",
			(cfg->flags & MF_FLAG_SMALL_RELATIVE_TO_TIME) ?
			"; SMALL_RELATIVE_TO_TIME" : "");
		if (cfg->flags & MF_FLAG_SMALL_RELATIVE_TO_TIME)
			fprintf(out, ", time limit %u min", limit);
		fputs(_js_release_note(cfg, pj), out);
		break;
	case MF_EXPL_PART:
		fprintf(out, "PriorityJobFactor %u of highest %u%s",
			pj->part ? pj->part->priority_job_factor : 0,
			cfg->part_max_priority,
			(cfg->flags & MF_FLAG_NO_NORMAL_PART) ?
			" (NO_NORMAL_PART: raw)" : "");
		break;
	case MF_EXPL_QOS:
		fprintf(out, "QOS priority %u of highest %u%s",
			pj->qos_priority, cfg->qos_max_priority,
			(cfg->flags & MF_FLAG_NO_NORMAL_QOS) ?
			" (NO_NORMAL_QOS: raw)" : "");
		break;
	case MF_EXPL_TRES:
		fprintf(out, "%llu of the partition's %llu%s",
			(unsigned long long)pj->tres_cnt[f->tres],
			(unsigned long long)(pj->part && pj->part->tres_cnt ?
					     pj->part->tres_cnt[f->tres] : 0),
			(cfg->flags & MF_FLAG_NO_NORMAL_TRES) ?
			" (NO_NORMAL_TRES: raw)" : "");
		break;
	}
}

/* The factor rows of E, a TRES's weight as the configuration holds it
 * (a fraction), the others' whole.  Returns nothing. */
static void _factors(const mf_prun_ctx_t *c, const mf_prun_opts_t *o,
		     const mf_expl_t *e, FILE *out)
{
	fprintf(out, "  %-12s %12s %12s %14s  %s\n", "factor", "value",
		"weight", "weighted", "from");
	for (guint i = 0; i < e->factors->len; i++) {
		const mf_expl_factor_t *f =
			&g_array_index(e->factors, mf_expl_factor_t, i);

		if (f->kind == MF_EXPL_TRES)
			fprintf(out, "  %-12s %12.7f %12g %14.2f  ", f->name,
				f->value, f->weight, f->weighted);
		else
			fprintf(out, "  %-12s %12.7f %12u %14.2f  ", f->name,
				f->value, (unsigned)f->weight, f->weighted);
		_from(c, o, e->job, f, out);
		fputc('\n', out);
	}
}

/* Site and nice, the sum, INCR_ONLY and the priority of E's job in each
 * of its partitions.  Returns nothing. */
static void _total(const mf_prun_ctx_t *c, const mf_expl_t *e, FILE *out)
{
	const mf_prio_config_t *cfg = &c->cfg;
	const mf_prio_result_t *r = &e->job->base;

	fprintf(out, "  %-12s %12s %12s %14lld\n", "site", "", "",
		(long long)r->site);
	fprintf(out, "  %-12s %12s %12s %14lld  (subtracted)\n",
		"nice", "", "", (long long)r->nice);
	fprintf(out, "  priority = %.2f -> %u%s\n", r->sum, r->priority,
		r->clamped ? " (clamped at 4294967295)" : "");
	if (cfg->flags & MF_FLAG_INCR_ONLY)
		fprintf(out, "  INCR_ONLY: the job keeps %u (its "
			"current priority %u, computed %u)\n",
			mf_priority_incr_only(cfg->flags, e->job->line->priority,
					      r->priority),
			e->job->line->priority, r->priority);
	for (guint k = 0; k < e->ranks->len; k++) {
		const mf_expl_rank_t *rk =
			&g_array_index(e->ranks, mf_expl_rank_t, k);

		if (rk->row && mf_prun_job_parts(e->job))
			fprintf(out, "  in partition %s (tier %u): %u\n",
				rk->part->name, rk->part->priority_tier,
				rk->row->r.priority);
	}
}

/* Neighbour N of the explained job, under LABEL.  Returns nothing. */
static void _neighbour(FILE *out, const char *label,
		       const mf_expl_neighbour_t *n, bool is_above)
{
	const mf_prun_row_t *other = n->row;

	if (!other) {
		fprintf(out, "  %s: none\n", label);
		return;
	}
	fprintf(out, "  %s: job %u (%s, %s) priority %u (%+lld): %s ahead "
		"by ", label, other->job->job.job_id, other->job->line->user,
		other->r.partition ? other->r.partition->name : "",
		other->r.priority, (long long)n->difference,
		is_above ? "it is" : "this job is");
	for (int i = 0; i < n->n_by; i++)
		fprintf(out, "%s%s +%.2f", i ? ", " : "", n->by[i].factor,
			n->by[i].by);
	if (!n->n_by)
		fputs("no factor (equal sums; the job id breaks the tie)", out);
	fputc('\n', out);
}

/* The job's rank in each of its partitions, and its place in the
 * scheduler's one queue.  Returns nothing. */
static void _ranks(const mf_expl_t *e, FILE *out)
{
	for (guint k = 0; k < e->ranks->len; k++) {
		const mf_expl_rank_t *rk =
			&g_array_index(e->ranks, mf_expl_rank_t, k);

		if (!rk->row)
			continue;
		fprintf(out, "Rank %u of %u pending jobs in partition %s "
			"(tier %u; by priority, then job id)\n", rk->rank,
			rk->ranked, rk->part ? rk->part->name : "(none)",
			rk->part ? rk->part->priority_tier : 0);
		_neighbour(out, "just above", &rk->above, true);
		_neighbour(out, "just below", &rk->below, false);
	}
	fprintf(out, "In the scheduler's queue (partition PriorityTier "
		"first, then priority): %u of %u rows; a job queued in "
		"several partitions is tried in each, in tier order\n",
		e->queue_pos, e->queue_rows);
}

int mf_expl_print_text(const mf_prun_ctx_t *c, const mf_prun_opts_t *o,
		       FILE *out)
{
	mf_expl_t e;
	int rc = mf_expl_build(c, o, &e);

	if (!rc) {
		_explain_head(c, o, e.job, out);
		_factors(c, o, &e, out);
		_total(c, &e, out);
		_ranks(&e, out);
	}
	mf_expl_clear(&e);
	return rc;
}
