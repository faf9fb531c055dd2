/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * access/sprio: sprio's objects and request in the release's shape (the
 * table is in sprio.h).  The objects of one list, each with its figures and
 * TRES arrays, are laid end to end in a few large blocks (a pool), not one
 * allocation per field: slurmctld packs them in the order they were made,
 * and frees the list item by item; the pool goes when its last item does.
 * From 23.02 the objects borrow their strings from the job.
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

/*
 * The pool of one list.  Each object's slot begins with a pointer to its
 * pool; LIVE counts the objects slurmctld has not freed yet.  A freed
 * pool's blocks are kept for the next list, up to _SPARE_MAX of them:
 * fresh memory for each request cost a page fault per 4 KiB.
 */
typedef struct _block {
	struct _block *next;
	size_t used;
	size_t size;
} _block_t;                     /* the slots follow, 8-byte aligned */

struct mfa_sprio_pool {
	_block_t *blocks;
	size_t live;
};

#define _BLOCK_BYTES ((size_t) 1 << 20)
#define _SPARE_MAX 16

static pthread_mutex_t _spare_mutex = PTHREAD_MUTEX_INITIALIZER;
static _block_t *_spare;        /* blocks of _BLOCK_BYTES, unused */
static int _spare_cnt;

static void _pool_free(mfa_sprio_pool_t *pool)
{
	_block_t *b, *next;

	slurm_mutex_lock(&_spare_mutex);
	for (b = pool->blocks; b; b = next) {
		next = b->next;
		if (b->size == _BLOCK_BYTES && _spare_cnt < _SPARE_MAX) {
			b->next = _spare;
			_spare = b;
			_spare_cnt++;
		} else {
			free(b);
		}
	}
	slurm_mutex_unlock(&_spare_mutex);
	xfree(pool);
}

void mfa_sprio_fini(void)
{
	_block_t *b;

	slurm_mutex_lock(&_spare_mutex);
	while ((b = _spare)) {
		_spare = b->next;
		free(b);
	}
	_spare_cnt = 0;
	slurm_mutex_unlock(&_spare_mutex);
}

/* A block of SIZE bytes for slots, empty. */
static _block_t *_block_new(size_t size)
{
	_block_t *b = NULL;

	if (size == _BLOCK_BYTES) {
		slurm_mutex_lock(&_spare_mutex);
		if ((b = _spare)) {
			_spare = b->next;
			_spare_cnt--;
		}
		slurm_mutex_unlock(&_spare_mutex);
	}
	if (!b && !(b = malloc(sizeof(*b) + size)))
		fatal("mfprio: out of memory for sprio's list (%zu bytes)",
		      size);
	b->used = 0;
	b->size = size;
	return b;
}

/* The list's destructor: one object fewer; the pool goes with the last. */
static void _free_item(void *x)
{
	mfa_sprio_pool_t *pool;

	if (!x)
		return;
	pool = ((mfa_sprio_pool_t **) x)[-1];
	if (!--pool->live)
		_pool_free(pool);
}

/* BYTES of zeroed memory for one object of S's list, appended to it. */
static void *_take(mfa_sprio_t *s, size_t bytes)
{
	mfa_sprio_pool_t **slot;
	_block_t *b;

	bytes = sizeof(*slot) + ((bytes + 7) & ~(size_t) 7);
	if (!s->pool)
		s->pool = xmalloc(sizeof(*s->pool));
	b = s->pool->blocks;
	if (!b || b->size - b->used < bytes) {
		b = _block_new(bytes > _BLOCK_BYTES ? bytes : _BLOCK_BYTES);
		b->next = s->pool->blocks;
		s->pool->blocks = b;
	}
	slot = (mfa_sprio_pool_t **) ((char *) (b + 1) + b->used);
	b->used += bytes;
	memset(slot, 0, bytes);
	*slot = s->pool;
	s->pool->live++;
	if (!s->ret)
		s->ret = list_create(_free_item);
	list_append(s->ret, slot + 1);
	return slot + 1;
}

/* The figures of one object: their own type from 23.02, the object
 * itself before. */
#if MFA_HAS_PRIORITY_FACTORS_T
typedef priority_factors_t _figures_t;
#else
typedef priority_factors_object_t _figures_t;
#endif

/*
 * How many of SRC's TRES entries sprio can show: up to the last with a
 * figure or a weight.  sprio prints a TRES only where its figure is not 0
 * (and adds only those to the total), so what follows is zeros it never
 * shows; slurmctld would still pack each of them with its TRES name, for
 * every job (most of an object's bytes where one TRES of eight has a
 * weight).
 */
static uint32_t _tres_shown(const _figures_t *src)
{
	uint32_t k = src->tres_cnt;

	while (k && !(src->priority_tres && src->priority_tres[k - 1]) &&
	       !(src->tres_weights && src->tres_weights[k - 1]))
		k--;
	return k;
}

/* The room SRC's TRES arrays take after its copy (0: no SRC). */
static size_t _array_bytes(const _figures_t *src)
{
	if (!src)
		return 0;
	return ((src->priority_tres ? src->tres_cnt : 0) +
		(src->tres_weights ? src->tres_cnt : 0)) * sizeof(double);
}

/* Copy SRC's figures to DST, its TRES entries right after DST (room for
 * _array_bytes(SRC)): all of them when WHOLE (the engine writes the TRES
 * figures of a job's other partitions with today's weights), else those
 * sprio shows.  The TRES names are not copied: slurmctld packs its own. */
static void _copy_figures(_figures_t *dst, const _figures_t *src, bool whole)
{
	double *d = (double *) (dst + 1);
	uint32_t k = whole ? src->tres_cnt : _tres_shown(src);

	*dst = *src;
	dst->tres_names = NULL;
	dst->tres_cnt = k;
	if (src->priority_tres) {
		dst->priority_tres = memcpy(d, src->priority_tres,
					    k * sizeof(double));
		d += k;
	}
	if (src->tres_weights)
		dst->tres_weights = memcpy(d, src->tres_weights,
					   k * sizeof(double));
}

#if MFA_HAS_PRIORITY_FACTORS_T
bool mfa_sprio_add(mfa_sprio_t *s, job_record_t *job, part_record_t *part,
		   bool multi, slurmdb_qos_rec_t *qos, mfa_sprio_terms_t *t)
{
	priority_factors_t *src = job->prio_factors;
	priority_factors_object_t *obj;
	priority_factors_t *pf;

	if (job->direct_set_prio)
		obj = _take(s, sizeof(*obj));
	else
		obj = _take(s, sizeof(*obj) + sizeof(*pf) + _array_bytes(src));
	obj->account = job->account;
#if MFA_FACTORS_STEP_ID
	obj->step_id = job->step_id;
#else
	obj->job_id = job->job_id;
#endif
	obj->partition = part ? part->name : job->part_ptr->name;
	obj->qos = qos ? qos->name : job->qos_ptr ? job->qos_ptr->name : NULL;
	obj->user_id = job->user_id;
	if (job->direct_set_prio) {
		obj->direct_prio = job->priority;
		return false;
	}
	pf = obj->prio_factors = (priority_factors_t *) (obj + 1);
	if (src)
		_copy_figures(pf, src, multi);
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
	bool direct = job->direct_set_prio && !multi;
	priority_factors_object_t *src = direct ? NULL : job->prio_factors;
	priority_factors_object_t *obj;

	obj = _take(s, sizeof(*obj) + _array_bytes(src));
	if (direct)
		obj->direct_prio = job->priority;
	else if (src)
		_copy_figures(obj, src, multi);
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

#if !MFA_FACTORS_LIST_UID_ONLY
typedef struct {
	job_record_t **v;
	size_t n;
	size_t room;
} _jobs_t;

static int _find_by_id(void *x, void *arg)
{
	_jobs_t *g = arg;
	job_record_t *job = mfa_find_job(*(uint32_t *) x);

	if (job && g->n < g->room)
		g->v[g->n++] = job;
	return 0;
}

static int _by_id(const void *a, const void *b)
{
	uint32_t x = (*(job_record_t * const *) a)->job_id;
	uint32_t y = (*(job_record_t * const *) b)->job_id;

	return (x > y) - (x < y);
}

/* FN for the jobs of the request's job ids, each once, by id. */
static void _each_asked(list_t *ids, mfa_sprio_job_fn fn, void *arg)
{
	_jobs_t g = { .room = list_count(ids) };
	size_t i;

	g.v = xcalloc(g.room + 1, sizeof(*g.v));
	(void) list_for_each_ro(ids, _find_by_id, &g);
	qsort(g.v, g.n, sizeof(*g.v), _by_id);
	for (i = 0; i < g.n; i++)
		if (!i || g.v[i] != g.v[i - 1])
			fn(g.v[i], arg);
	xfree(g.v);
}
#endif

typedef struct {
	mfa_sprio_job_fn fn;
	void *arg;
} _each_t;

static int _each(void *x, void *arg)
{
	_each_t *e = arg;

	e->fn(x, e->arg);
	return 0;
}

void mfa_sprio_each_job(const mfa_sprio_t *s, mfa_sprio_job_fn fn, void *arg)
{
	list_t *jobs = mfa_job_list();
	_each_t e = { .fn = fn, .arg = arg };

#if !MFA_FACTORS_LIST_UID_ONLY
	priority_factors_request_msg_t *r = s->req;

	if (r && r->job_id_list) {
		_each_asked(r->job_id_list, fn, arg);
		return;
	}
#else
	(void) s;
#endif
	if (jobs)
		(void) list_for_each_ro(jobs, _each, &e);
}

void mfa_sprio_prefetch(job_record_t *job, int stage)
{
	if (stage == 0) {
		__builtin_prefetch(&job->job_id);
		__builtin_prefetch(&job->job_state);
		__builtin_prefetch(&job->priority);
		__builtin_prefetch(&job->details);
		__builtin_prefetch(&job->part_ptr);
		__builtin_prefetch(&job->part_ptr_list);
		__builtin_prefetch(&job->prio_factors);
		__builtin_prefetch(&job->direct_set_prio);
		__builtin_prefetch(&job->user_id);
		__builtin_prefetch(&job->account);
		__builtin_prefetch(&job->qos_ptr);
	} else if (stage == 1) {
		if (job->details) {
			__builtin_prefetch(&job->details->begin_time);
			__builtin_prefetch(&job->details->submit_time);
		}
		__builtin_prefetch(job->prio_factors);
	} else if (job->prio_factors) {
		__builtin_prefetch(job->prio_factors->priority_tres);
		__builtin_prefetch(job->prio_factors->tres_weights);
	}
}

list_t *mfa_sprio_end(mfa_sprio_t *s)
{
	list_t *ret = s->ret;

	if (ret && !list_count(ret))
		FREE_NULL_LIST(ret);
	if (s->pool && !s->pool->live)
		_pool_free(s->pool);
#if !MFA_HAS_INTERFACES_DIR
	mfa_ctld_unlock(_job_read_lock);
#endif
	FREE_NULL_LIST(s->part_filter);
	*s = (mfa_sprio_t) { 0 };
	return ret;
}
