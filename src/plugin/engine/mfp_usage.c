/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "mfp_usage.h"

#include "src/core/usage_charge.h"

/* One place usage is counted: an association's or a QOS's usage record
 * (they are different types with the same three counters). */
typedef struct {
	long double *raw;
	long double *tres;
	double *wall;
	int weighting;          /* MF_CHARGE_DECAYED or MF_CHARGE_PLAIN */
} tally_t;

/* What the booking of one job needs besides the charge. */
typedef struct {
	job_record_t *job;
	const mf_charge_t *charge;  /* NULL: only give back reservations */
	const uint64_t *released;
	bool limits;
	bool of_run;                /* a settled run: book to run_qos and
				     * run_part_qos (the QOS and partition
				     * QOS it ran under, or NULL), not to
				     * the job's QOS and partition now */
	slurmdb_qos_rec_t *run_qos;
	slurmdb_qos_rec_t *run_part_qos;
} booking_t;

bool mfp_usage_limits(void)
{
	return mfa_accounting_enforce() & ACCOUNTING_ENFORCE_LIMITS;
}

static tally_t _assoc_tally(slurmdb_assoc_usage_t *u)
{
	tally_t t = { &u->usage_raw, u->usage_tres_raw, &u->grp_used_wall,
		      MF_CHARGE_DECAYED };
	return t;
}

static tally_t _qos_tally(slurmdb_qos_rec_t *qos)
{
	tally_t t = { &qos->usage->usage_raw, qos->usage->usage_tres_raw,
		      &qos->usage->grp_used_wall,
		      (qos->flags & QOS_FLAG_NO_DECAY) ?
		      MF_CHARGE_PLAIN : MF_CHARGE_DECAYED };
	return t;
}

/* Add the charge to tally T (per-TRES usage only with limits). */
static void _add(const tally_t *t, const booking_t *b)
{
	const mf_charge_t *c = b->charge;
	int k = t->weighting;

	if (!c)
		return;
	*t->wall += c->wall[k];
	*t->raw += c->raw[k];
	if (!b->limits || !t->tres)
		return;
	for (uint32_t i = 0; i < c->tres_cnt; i++)
		t->tres[i] += c->tres[k][i];
}

/* Take the released TRES-seconds from a running total HELD: a QOS's
 * (QOS_NAME, with WHAT qualifying which of its totals) or association
 * ASSOC_ID's, named in the message of a shortfall. */
static void _take_back(uint64_t *held, const booking_t *b,
		       const char *qos_name, const char *what,
		       uint32_t assoc_id)
{
	int cnt = mfa_tres_cnt();

	for (int i = 0; i < cnt; i++) {
		uint64_t r = b->released[i];

		if (r <= held[i]) {
			held[i] -= r;
			continue;
		}
		if (qos_name)
			error("mfprio: %pJ: QOS %s%s had %"PRIu64" %s "
			      "TRES-seconds reserved, the job used %"PRIu64
			      "; now 0", b->job, qos_name, what, held[i],
			      assoc_mgr_tres_name_array[i], r);
		else
			error("mfprio: %pJ: association %u had %"PRIu64" %s "
			      "TRES-seconds reserved, the job used %"PRIu64
			      "; now 0", b->job, assoc_id, held[i],
			      assoc_mgr_tres_name_array[i], r);
		held[i] = 0;
	}
}

static void _book_qos(slurmdb_qos_rec_t *qos, const booking_t *b)
{
	mfa_run_total_t totals[MFA_RUN_TOTALS_MAX];
	tally_t t;
	int n;

	if (!qos)
		return;
	t = _qos_tally(qos);
	if (!b->limits) {
		_add(&t, b);
		return;
	}
	/* a QOS whose release keeps no running total for this job (from
	 * 24.05: no association) takes no TRES either */
	n = mfa_qos_run_totals(qos, b->job, totals);
	if (!n)
		t.tres = NULL;
	_add(&t, b);
	for (int k = 0; k < n; k++)
		_take_back(totals[k].run, b, qos->name, totals[k].what, 0);
}

static void _book_assoc_chain(slurmdb_assoc_rec_t *assoc, const booking_t *b)
{
	for (; assoc; assoc = assoc->usage->parent_assoc_ptr) {
		tally_t t = _assoc_tally(assoc->usage);

		_add(&t, b);
		if (b->limits)
			_take_back(assoc->usage->grp_used_tres_run_secs, b,
				   NULL, NULL, assoc->id);
	}
}

/* Every tally of B's job. */
static void _book(const booking_t *b)
{
	slurmdb_qos_rec_t *qos = b->of_run ? b->run_qos : b->job->qos_ptr;
	slurmdb_qos_rec_t *part_qos = b->of_run ? b->run_part_qos :
		b->job->part_ptr ? b->job->part_ptr->qos_ptr : NULL;

	_book_qos(qos, b);
	if (part_qos != qos)
		_book_qos(part_qos, b);
	_book_assoc_chain(b->job->assoc_ptr, b);
}

/* The UsageFactor of JOB's QOS (1 without one). */
static double _usage_factor(const job_record_t *job)
{
	return job->qos_ptr ? job->qos_ptr->usage_factor : 1.0;
}

/* JOB as the core's charge sees it; COUNTS (mfa_tres_cnt()) receives
 * its TRES, with the ones not counted (energy, not consumed) as 0. */
static void _as_charged(job_record_t *job, bool at_end, uint64_t *counts,
			mf_charge_job_t *in)
{
	int cnt = mfa_tres_cnt();

	for (int i = 0; i < cnt; i++) {
		uint64_t n = job->tres_alloc_cnt ? job->tres_alloc_cnt[i] : 0;

		counts[i] = (i == TRES_ARRAY_ENERGY || n == NO_CONSUME_VAL64) ?
			0 : n;
	}
	in->start = job->start_time;
	in->end = at_end ? job->end_time : 0;
	in->ended = IS_JOB_FINISHED(job) || IS_JOB_COMPLETING(job) ||
		IS_JOB_RESIZING(job);
	in->reserved_until = job->start_time +
		(time_t) job->time_limit * 60;
	in->expected_end = job->end_time_exp;
	in->billable = 0.0;             /* the caller's, when it charges */
	in->usage_factor = _usage_factor(job);
	in->tres = counts;
	in->tres_cnt = cnt;
}

double mfp_usage_charge(job_record_t *job, time_t from, time_t to,
			bool at_end, bool mark_ended, double decay)
{
	uint32_t cnt = MAX(mfa_tres_cnt(), 1);
	uint64_t counts[cnt], released[cnt];
	long double owed[2 * cnt];
	mf_charge_job_t in;
	mf_charge_t c;
	booking_t b = { .job = job, .charge = &c, .released = released,
			.limits = mfp_usage_limits() };

	if (job->end_time_exp == (time_t) NO_VAL)
		return -1.0;            /* settled already */
	_as_charged(job, at_end, counts, &in);
	/* the caller has put the stretch in the clock's present reckoning
	 * (mfp_charge.c): it is charged whole, whatever the reckoning of the
	 * start and end times slurmctld wrote before a step of its clock */
	in.start = MIN(in.start, from);
	if (at_end)
		in.end = MAX(to, from);
	in.billable = mfa_job_billable(job, MAX(from, job->start_time), true);
	mf_charge_bind(&c, in.tres_cnt, owed, released);
	mf_charge_compute(&in, from, to, decay, &c);
	if (mark_ended)
		job->end_time_exp = (time_t) NO_VAL;
	log_flag(PRIO, "mfprio: %pJ owes %.0f s x %.3f billable (x %.6f "
		 "decay) from %ld to %ld", job, c.seconds, in.billable,
		 c.weight, (long) from, (long) to);
	_book(&b);
	return in.billable;
}

void mfp_usage_run_of(const job_record_t *job, time_t charged_to,
		      double billable, mfp_run_t *run)
{
	run->start = job->start_time;
	run->charged_to = charged_to;
	run->billable = billable;
	run->usage_factor = _usage_factor(job);
	run->qos_id = job->qos_ptr ? job->qos_ptr->id : 0;
	run->part_qos_id = job->part_ptr && job->part_ptr->qos_ptr ?
		job->part_ptr->qos_ptr->id : 0;
}

/* list_find_first: the QOS whose id KEY (a uint32_t *) names. */
static int _qos_of_id(void *x, void *key)
{
	return ((slurmdb_qos_rec_t *) x)->id == *(uint32_t *) key;
}

void mfp_usage_charge_run(job_record_t *job, const mfp_run_t *run, time_t end,
			  double decay)
{
	mf_charge_job_t in = { .start = run->start, .end = end, .ended = true,
			       .billable = run->billable,
			       .usage_factor = run->usage_factor };
	mf_charge_t c;
	booking_t b = { .job = job, .charge = &c, .limits = false,
			.of_run = true };
	uint32_t qos_id = run->qos_id, part_qos_id = run->part_qos_id;

	if (qos_id && assoc_mgr_qos_list)
		b.run_qos = list_find_first(assoc_mgr_qos_list, _qos_of_id,
					    &qos_id);
	if (part_qos_id && assoc_mgr_qos_list)
		b.run_part_qos = list_find_first(assoc_mgr_qos_list,
						 _qos_of_id, &part_qos_id);
	mf_charge_bind(&c, 0, NULL, NULL);
	mf_charge_compute(&in, run->charged_to, end, decay, &c);
	log_flag(PRIO, "mfprio: %pJ owes %.0f s x %.3f billable (x %.6f "
		 "decay) from %ld to %ld, the end of its run of %ld under "
		 "QOS %s (partition QOS %s)", job, c.seconds, in.billable,
		 c.weight, (long) run->charged_to, (long) end,
		 (long) run->start, b.run_qos ? b.run_qos->name : "(none)",
		 b.run_part_qos ? b.run_part_qos->name : "(none)");
	_book(&b);
}

/* --- aging and forgetting --- */

typedef struct {
	double keep;
	bool forget;            /* a reset: every QOS, and removed children */
} scale_t;

static void _scale(const tally_t *t, double keep)
{
	*t->raw *= keep;
	*t->wall *= keep;
	for (int i = 0, n = mfa_tres_cnt(); t->tres && i < n; i++)
		t->tres[i] *= keep;
}

static int _scale_assoc(void *x, void *arg)
{
	slurmdb_assoc_rec_t *assoc = x;
	const scale_t *s = arg;
	slurmdb_assoc_usage_t *kept = assoc->leaf_usage;
	tally_t t = _assoc_tally(assoc->usage);

	_scale(&t, s->keep);
	/* an account keeps apart the usage of its removed children */
	if (!kept || kept == assoc->usage)
		return 0;
	if (s->forget) {
		slurmdb_destroy_assoc_usage(kept);
		assoc->leaf_usage = NULL;
	} else {
		t = _assoc_tally(kept);
		_scale(&t, s->keep);
	}
	return 0;
}

static int _scale_qos(void *x, void *arg)
{
	slurmdb_qos_rec_t *qos = x;
	const scale_t *s = arg;
	tally_t t = _qos_tally(qos);

	if (!s->forget && t.weighting == MF_CHARGE_PLAIN)
		return 0;               /* NoDecay */
	_scale(&t, s->keep);
	return 0;
}

/* Every association and QOS scaled as S says (the assoc and QOS write
 * locks held). */
static void _scale_locked(const scale_t *s)
{
	list_for_each(assoc_mgr_assoc_list, _scale_assoc, (void *) s);
	list_for_each(assoc_mgr_qos_list, _scale_qos, (void *) s);
}

static void _scale_all(const scale_t *s)
{
	assoc_mgr_lock_t locks = { .assoc = WRITE_LOCK, .qos = WRITE_LOCK };

	assoc_mgr_lock(&locks);
	_scale_locked(s);
	assoc_mgr_unlock(&locks);
}

void mfp_usage_age_locked(double keep)
{
	scale_t s = { .keep = keep };

	if (keep != 1.0)
		_scale_locked(&s);
}

void mfp_usage_forget(void)
{
	scale_t s = { .keep = 0.0, .forget = true };

	info("mfprio: PriorityUsageResetPeriod: all usage is reset");
	_scale_all(&s);
}

/* --- reservations after a restart --- */

static int _catch_up(void *x, void *arg)
{
	job_record_t *job = x;
	time_t last_ran = *(time_t *) arg;
	uint32_t cnt = MAX(mfa_tres_cnt(), 1);
	uint64_t counts[cnt], released[cnt];
	mf_charge_job_t in;
	booking_t b = { .job = job, .released = released, .limits = true };

	if (!IS_JOB_RUNNING(job) || !job->tres_alloc_cnt ||
	    job->end_time_exp == (time_t) NO_VAL ||
	    job->start_time > last_ran)
		return 0;
	_as_charged(job, false, counts, &in);
	mf_charge_used_reserve(&in, last_ran, released);
	_book(&b);
	return 0;
}

void mfp_usage_reserve_catch_up(time_t last_ran)
{
	slurmctld_lock_t job_read_lock = { .job = READ_LOCK };
	assoc_mgr_lock_t locks = { .assoc = WRITE_LOCK, .qos = WRITE_LOCK,
				   .tres = READ_LOCK };

	list_t *jobs = mfa_job_list();

	if (!mfp_usage_limits() || !jobs || !last_ran)
		return;
	mfa_ctld_lock(job_read_lock);
	assoc_mgr_lock(&locks);
	list_for_each(jobs, _catch_up, &last_ran);
	assoc_mgr_unlock(&locks);
	mfa_ctld_unlock(job_read_lock);
}
