/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE             /* renameat2 */
#endif
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "metrics.h"
#include "prom_text.h"

/* "00" to "99", for writing two digits at a time. */
static const char _pairs[] =
	"00010203040506070809101112131415161718192021222324252627282930313233"
	"34353637383940414243444546474849505152535455565758596061626364656667"
	"6869707172737475767778798081828384858687888990919293949596979899";

/*
 * V as Prometheus reads a float: "NaN", "+Inf", "-Inf", or digits.  At
 * 100,000 associations printf's conversion would be most of the cost, so
 * the usual cases are written by hand: whole numbers as integers; others
 * under 1e7 as fixed point with twelve decimals, trailing zeros dropped
 * (9 significant digits or more from 1e-4 up); smaller ones (a user's
 * part of a large cluster) scaled into [1, 10) and written with the same
 * digits and an exponent "e-K".  Anything else goes through "%.17g".
 */
static void _num(mf_prom_sink_t *o, double v)
{
	char buf[64];
	char *end = buf + sizeof(buf), *p;
	uint64_t whole, frac;
	double a;
	bool neg;
	int digits = 12, k = 0;

	if (isnan(v)) {
		mf_prom_puts(o, "NaN");
		return;
	}
	if (isinf(v)) {
		mf_prom_puts(o, v > 0 ? "+Inf" : "-Inf");
		return;
	}
	neg = v < 0;
	a = neg ? -v : v;
	if (a >= 1e7 || (a < 1e-4 && a < 1e-30)) {
		if (a == floor(a) && a < 1e15) {
			p = end;
			whole = (uint64_t) a;
			do {
				*--p = (char) ('0' + whole % 10);
				whole /= 10;
			} while (whole);
			if (neg)
				*--p = '-';
			mf_prom_put(o, p, (size_t) (end - p));
			return;
		}
		snprintf(buf, sizeof(buf), "%.17g", v);
		mf_prom_puts(o, buf);
		return;
	}
	if (a < 1e-4) {
		while (a < 1) {
			a *= 10;
			k++;
		}
	}
	p = end;
	if (k) {
		*--p = (char) ('0' + k % 10);
		if (k >= 10)
			*--p = (char) ('0' + k / 10);
		*--p = '-';
		*--p = 'e';
	}
	frac = (uint64_t) llround(a * 1e12);
	whole = frac / 1000000000000ULL;
	frac %= 1000000000000ULL;
	if (frac) {
		/* twelve digits, two 6-digit halves of two-digit pairs, then
		 * the trailing zeros dropped */
		char d[12];
		uint32_t half[2] = { (uint32_t) (frac / 1000000),
				     (uint32_t) (frac % 1000000) };

		for (int h = 0; h < 2; h++) {
			uint32_t hv = half[h];

			for (int j = 2; j >= 0; j--) {
				memcpy(d + 6 * h + 2 * j,
				       _pairs + 2 * (hv % 100), 2);
				hv /= 100;
			}
		}
		while (digits && d[digits - 1] == '0')
			digits--;
		p -= digits;
		memcpy(p, d, (size_t) digits);
		*--p = '.';
	} else {
		digits = 0;
	}
	if (whole < 100) {
		if (whole >= 10) {
			p -= 2;
			memcpy(p, _pairs + 2 * whole, 2);
		} else {
			*--p = (char) ('0' + whole);
		}
	} else {
		do {
			*--p = (char) ('0' + whole % 10);
			whole /= 10;
		} while (whole);
	}
	if (neg)
		*--p = '-';
	mf_prom_put(o, p, (size_t) (end - p));
}

/* NAME="VALUE" with the exposition format's escapes (backslash, quote,
 * newline); nothing for an empty or NULL value. */
static void _label(GString *g, bool *first, const char *name,
		   const char *value)
{
	if (!value || !*value)
		return;
	g_string_append_c(g, *first ? '{' : ',');
	*first = false;
	if (!strpbrk(value, "\\\"\n")) {
		size_t nl = strlen(name), vl = strlen(value), at = g->len;

		/* name="value" in one go */
		g_string_set_size(g, at + nl + vl + 2);
		memcpy(g->str + at, name, nl);
		g->str[at + nl] = '=';
		g->str[at + nl + 1] = '"';
		memcpy(g->str + at + nl + 2, value, vl);
	} else {
		g_string_append(g, name);
		g_string_append(g, "=\"");
		for (const char *s = value; *s; s++) {
			switch (*s) {
			case '\\': g_string_append(g, "\\\\"); break;
			case '"': g_string_append(g, "\\\""); break;
			case '\n': g_string_append(g, "\\n"); break;
			default: g_string_append_c(g, *s);
			}
		}
	}
	g_string_append_c(g, '"');
}

/* One sample: NAME (NLEN bytes), the label block LABELS ("" or "{...}"),
 * V. */
static inline void _sample(mf_prom_sink_t *o, const char *name, size_t nlen,
			   const char *labels, size_t llen, double v)
{
	if (nlen + llen > MF_PROM_SINK_ROOM - 64) {
		mf_prom_put(o, name, nlen);
		mf_prom_put(o, labels, llen);
		mf_prom_put(o, " ", 1);
	} else {
		char *p;

		mf_prom_room(o, MF_PROM_SINK_ROOM);
		p = o->buf + o->len;
		memcpy(p, name, nlen);
		memcpy(p + nlen, labels, llen);
		p[nlen + llen] = ' ';
		o->len += nlen + llen + 1;
	}
	_num(o, v);
	mf_prom_put(o, "\n", 1);
}

/* The label blocks of every association, one after the other in LB, each
 * at OFF[i], OFF[i + 1] - OFF[i] long. */
static void _assoc_labels(const mf_metrics_t *m, GString *lb, size_t *off)
{
	char depth[16];

	for (size_t i = 0; i < m->n_assocs; i++) {
		const mf_metrics_assoc_t *a = &m->assocs[i];
		bool first = true;

		off[i] = lb->len;
		if (a->depth >= 0 && a->depth < 10) {
			depth[0] = (char) ('0' + a->depth);
			depth[1] = '\0';
		} else {
			snprintf(depth, sizeof(depth), "%d", a->depth);
		}
		_label(lb, &first, "cluster", m->cluster);
		_label(lb, &first, "account", a->account);
		_label(lb, &first, "user", a->user);
		_label(lb, &first, "partition", a->partition);
		_label(lb, &first, "parent", a->parent);
		_label(lb, &first, "depth", depth);
		g_string_append_c(lb, '}');
	}
	off[m->n_assocs] = lb->len;
}

typedef struct {
	const char *name;
	const char *help;
	size_t field;            /* offset of the double in the record, or
				  * (size_t) -1 for shares_raw */
} _assoc_family_t;

static const _assoc_family_t _assoc_families[] = {
	{ "mfprio_assoc_shares",
	  "Raw shares of the association (FairShare in sacctmgr).",
	  (size_t) -1 },
	{ "mfprio_assoc_shares_norm_ratio",
	  "Normalized shares: the association's part of the cluster, 0 to 1.",
	  offsetof(mf_metrics_assoc_t, shares_norm) },
	{ "mfprio_assoc_usage_raw_seconds",
	  "Raw usage: decayed, billing-weighted TRES-seconds (sshare "
	  "RawUsage).",
	  offsetof(mf_metrics_assoc_t, usage_raw) },
	{ "mfprio_assoc_usage_effective_ratio",
	  "Effective usage (sshare EffectvUsage).",
	  offsetof(mf_metrics_assoc_t, usage_efctv) },
	{ "mfprio_assoc_fairshare_ratio",
	  "Fair-share factor, 0 to 1 (sshare FairShare).",
	  offsetof(mf_metrics_assoc_t, fs_factor) },
	{ "mfprio_assoc_level_fairshare",
	  "Fair Tree level fair-share: shares over usage among siblings "
	  "(sshare LevelFS).",
	  offsetof(mf_metrics_assoc_t, level_fs) },
};

static void _assocs(mf_prom_sink_t *o, const mf_metrics_t *m)
{
	GString *lb;
	size_t *off;

	if (!m->n_assocs)
		return;
	lb = g_string_sized_new(m->n_assocs * 96);
	off = g_new(size_t, m->n_assocs + 1);
	_assoc_labels(m, lb, off);
	for (size_t f = 0; f < G_N_ELEMENTS(_assoc_families); f++) {
		const _assoc_family_t *fam = &_assoc_families[f];

		size_t nlen = strlen(fam->name);

		mf_prom_head(o, fam->name, "gauge", fam->help);
		for (size_t i = 0; i < m->n_assocs; i++) {
			const mf_metrics_assoc_t *a = &m->assocs[i];
			double v;

			if (fam->field == (size_t) -1) {
				if (a->shares_raw == MF_METRICS_NO_SHARES)
					continue;
				v = a->shares_raw;
			} else {
				memcpy(&v, (const char *) a + fam->field,
				       sizeof(v));
				if (isnan(v))
					continue;
			}
			_sample(o, fam->name, nlen, lb->str + off[i],
				off[i + 1] - off[i], v);
		}
	}
	g_free(off);
	g_string_free(lb, TRUE);
}

static void _pending(mf_prom_sink_t *o, const mf_metrics_t *m)
{
	static const struct {
		const char *name, *help;
	} fams[] = {
		{ "mfprio_pending_jobs",
		  "Pending jobs sprio lists, per association and partition." },
		{ "mfprio_pending_priority_summed",
		  "Sum of those jobs' priorities in the partition." },
		{ "mfprio_pending_priority_highest",
		  "Highest of those jobs' priorities in the partition." },
		{ "mfprio_pending_oldest_wait_seconds",
		  "Time since the submission of the one submitted first." },
		{ "mfprio_pending_oldest_priority",
		  "The priority of that longest-waiting job in the partition." },
	};
	GString *lb = g_string_new(NULL);

	for (size_t f = 0; f < G_N_ELEMENTS(fams); f++) {
		mf_prom_head(o, fams[f].name, "gauge", fams[f].help);
		for (size_t i = 0; i < m->n_pending; i++) {
			const mf_metrics_pending_t *p = &m->pending[i];
			bool first = true;
			double v = f == 0 ? (double) p->jobs :
				f == 1 ? p->prio_sum : f == 2 ? p->prio_max :
				f == 3 ? p->oldest_wait : p->oldest_prio;

			if (isnan(v))
				continue;
			g_string_truncate(lb, 0);
			_label(lb, &first, "cluster", m->cluster);
			_label(lb, &first, "account", p->account);
			_label(lb, &first, "user", p->user);
			_label(lb, &first, "partition", p->partition);
			if (!first)
				g_string_append_c(lb, '}');
			_sample(o, fams[f].name, strlen(fams[f].name),
				lb->str, lb->len, v);
		}
	}
	g_string_free(lb, TRUE);
}

/* One gauge or counter of the cycle, with the cluster label and at most
 * one more (LNAME NULL: none). */
static void _cycle_one(mf_prom_sink_t *o, const char *cl, const char *name,
		       const char *type, const char *help, const char *lname,
		       const char *const *lvals, const double *v, int n)
{
	GString *lb = g_string_new(NULL);

	mf_prom_head(o, name, type, help);
	for (int i = 0; i < n; i++) {
		bool first = true;

		if (isnan(v[i]))
			continue;
		g_string_truncate(lb, 0);
		_label(lb, &first, "cluster", cl);
		if (lname)
			_label(lb, &first, lname, lvals[i]);
		if (!first)
			g_string_append_c(lb, '}');
		_sample(o, name, strlen(name), lb->str, lb->len, v[i]);
	}
	g_string_free(lb, TRUE);
}

static void _cycle(mf_prom_sink_t *o, const mf_metrics_t *m)
{
	const mf_metrics_cycle_t *c = m->cycle;
	const char *cl = m->cluster;
	static const char *const phases[] = { "charge", "priorities" };
	static const char *const states[] = { "all", "recomputed", "changed",
					      "skipped" };
	double v[4];

#define ONE(name, type, help, val) \
	do { v[0] = (val); \
	     _cycle_one(o, cl, name, type, help, NULL, NULL, v, 1); } while (0)
	ONE("mfprio_cycle_timestamp_seconds", "gauge",
	    "Start of the plugin's last decay cycle, Unix time.", c->start);
	ONE("mfprio_cycle_wall_seconds", "gauge",
	    "Wall time of the last cycle.", c->wall_s);
	ONE("mfprio_cycle_cpu_seconds", "gauge",
	    "CPU time of the decay thread in the last cycle.", c->cpu_s);
	v[0] = c->lock_charge_s;
	v[1] = c->lock_prio_s;
	_cycle_one(o, cl, "mfprio_cycle_job_lock_seconds", "gauge",
		   "Job write lock held in the last cycle, all holds of a "
		   "phase.", "phase", phases, v, 2);
	v[0] = c->charge_holds;
	v[1] = c->prio_holds;
	_cycle_one(o, cl, "mfprio_cycle_job_lock_holds", "gauge",
		   "Times the job write lock was taken in the last cycle.",
		   "phase", phases, v, 2);
	ONE("mfprio_cycle_job_lock_longest_seconds", "gauge",
	    "Longest single hold of the job write lock in the last cycle.",
	    c->lock_longest_s);
	ONE("mfprio_cycle_assoc_lock_seconds", "gauge",
	    "Association write lock held to compute fair-share in the last "
	    "cycle.", c->assoc_lock_s);
	ONE("mfprio_cycle_fairshare_tree_built", "gauge",
	    "1 when the last cycle built the association tree anew, 0 when "
	    "it reused the last one.", c->tree_built ? 1 : 0);
	v[0] = c->jobs_total;
	v[1] = c->jobs_recomputed;
	v[2] = c->jobs_changed;
	v[3] = c->jobs_skipped;
	_cycle_one(o, cl, "mfprio_cycle_jobs", "gauge",
		   "Jobs of the last cycle: all in the controller, priorities "
		   "recomputed, changed, skipped.", "state", states, v, 4);
	ONE("mfprio_metrics_collect_lock_seconds", "gauge",
	    "Locks held to collect these figures in the last cycle.",
	    c->collect_lock_s);
	ONE("mfprio_metrics_write_seconds", "gauge",
	    "Time to format and write the previous metrics file, outside "
	    "every lock.", c->write_s);
	ONE("mfprio_metrics_handoff_seconds", "gauge",
	    "Time the decay thread took to hand the previous metrics file's "
	    "figures to the thread that writes it.", c->handoff_s);
	ONE("mfprio_metrics_skipped_total", "counter",
	    "Metrics files not written because the writer was still busy "
	    "with the one before.", (double) c->skipped);
	ONE("mfprio_cycles_total", "counter",
	    "Decay cycles since slurmctld loaded the plugin.",
	    (double) c->cycles);
	ONE("mfprio_job_lock_seconds_total", "counter",
	    "Job write lock held by the decay thread since the plugin loaded.",
	    c->lock_total_s);
	ONE("mfprio_thread_cpu_seconds_total", "counter",
	    "CPU time of the decay thread's cycles since the plugin loaded.",
	    c->cpu_total_s);
	ONE("mfprio_fairshare_tree_builds_total", "counter",
	    "Association trees built since the plugin loaded.",
	    (double) c->tree_builds);
	ONE("mfprio_job_lock_longest_seconds_max", "gauge",
	    "Longest single hold of the job write lock since the plugin "
	    "loaded.", c->lock_max_s);
#undef ONE
}

/* Everything, into O. */
static void _all(mf_prom_sink_t *o, const mf_metrics_t *m)
{
	GString *lb = g_string_new(NULL);
	bool first = true;

	mf_prom_head(o, "mfprio_metrics_info", "gauge",
	      "Where these figures come from; always 1.");
	_label(lb, &first, "cluster", m->cluster);
	_label(lb, &first, "source", m->source);
	_label(lb, &first, "algorithm", m->algorithm);
	if (!first)
		g_string_append_c(lb, '}');
	_sample(o, "mfprio_metrics_info", strlen("mfprio_metrics_info"),
		lb->str, lb->len, 1);
	mf_prom_head(o, "mfprio_metrics_timestamp_seconds", "gauge",
	      "When these figures were taken, Unix time.");
	g_string_truncate(lb, 0);
	first = true;
	_label(lb, &first, "cluster", m->cluster);
	if (!first)
		g_string_append_c(lb, '}');
	_sample(o, "mfprio_metrics_timestamp_seconds",
		strlen("mfprio_metrics_timestamp_seconds"), lb->str, lb->len,
		m->timestamp);
	g_string_free(lb, TRUE);
	_assocs(o, m);
	_pending(o, m);
	if (m->cycle)
		_cycle(o, m);
	mf_prom_flush(o);
}

void mf_metrics_format(GString *g, const mf_metrics_t *m)
{
	mf_prom_sink_t o = { .buf = g_malloc(MF_PROM_SINK_SIZE), .fd = -1, .g = g };

	_all(&o, m);
	g_free(o.buf);
}

int mf_metrics_write_file(const char *path, const mf_metrics_t *m,
			  mf_error_t *errp)
{
	char *tmp = g_strdup_printf("%s.tmp", path);
	mf_prom_sink_t o = { .fd = -1 };
	const char *what = "write";
	int e;

	/* not truncated: the last cycle's temporary file (the file before
	 * it, see below) is overwritten in place, its pages reused, then cut
	 * to the new length */
	o.fd = open(tmp, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (o.fd < 0) {
		e = errno;
		mf_errprintf(errp, "%s: cannot create it: %s", tmp,
			     strerror(e));
		g_free(tmp);
		return -1;
	}
	/* the creator's umask may have taken the collector's read right */
	if (fchmod(o.fd, 0644) < 0) {
		o.err = errno;
		what = "chmod";
	} else {
		o.buf = g_malloc(MF_PROM_SINK_SIZE);
		_all(&o, m);
		g_free(o.buf);
		if (!o.err && ftruncate(o.fd, (off_t) o.total) < 0) {
			o.err = errno;
			what = "truncate";
		}
	}
	if (close(o.fd) < 0 && !o.err) {
		o.err = errno;
		what = "close";
	}
	if (o.err) {
		(void) unlink(tmp);
		mf_errprintf(errp, "%s: %s failed: %s", tmp, what,
			     strerror(o.err));
		g_free(tmp);
		return -1;
	}
	/* swapped with the file when there is one (both stay whole: a reader
	 * opens the old file or the new), so that the next write reuses the
	 * old file's pages instead of the kernel allocating (and zeroing) as
	 * many anew and freeing the old ones: most of the cost of a large
	 * file.  A file system without the exchange gets a plain rename. */
	if (renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_EXCHANGE) == 0) {
		g_free(tmp);
		return 0;
	}
	if (rename(tmp, path) < 0) {
		e = errno;
		(void) unlink(tmp);
		mf_errprintf(errp, "%s: cannot rename %s over it: %s", path,
			     tmp, strerror(e));
		g_free(tmp);
		return -1;
	}
	g_free(tmp);
	return 0;
}

int mf_metrics_param(const char *params, const char *key, char **value,
		     mf_error_t *errp)
{
	gchar **items;
	size_t klen = strlen(key);
	int found = 0;

	*value = NULL;
	if (!params || !*params)
		return 0;
	items = g_strsplit(params, ",", -1);
	for (gchar **it = items; *it; it++) {
		char *s = g_strstrip(*it);
		const char *v;

		if (g_ascii_strncasecmp(s, key, klen) ||
		    (s[klen] && s[klen] != '=' && !g_ascii_isspace(s[klen])))
			continue;
		v = s + klen;
		while (g_ascii_isspace(*v))
			v++;
		if (found++) {
			mf_errprintf(errp, "PriorityParameters: %s is given "
				     "twice", key);
			goto bad;
		}
		if (*v != '=') {
			mf_errprintf(errp, "PriorityParameters: %s needs "
				     "=FILE", key);
			goto bad;
		}
		v++;
		while (g_ascii_isspace(*v))
			v++;
		if (!*v) {
			mf_errprintf(errp, "PriorityParameters: %s= is empty",
				     key);
			goto bad;
		}
		if (*v != '/') {
			mf_errprintf(errp, "PriorityParameters: %s=%s: not an "
				     "absolute path", key, v);
			goto bad;
		}
		for (const char *c = v; *c; c++) {
			if (g_ascii_isspace(*c) || g_ascii_iscntrl(*c)) {
				mf_errprintf(errp, "PriorityParameters: %s=%s: "
					     "a blank or control character in "
					     "the path", key, v);
				goto bad;
			}
		}
		if (!g_str_has_suffix(v, ".prom") || !strcmp(strrchr(v, '/'),
							     "/.prom")) {
			mf_errprintf(errp, "PriorityParameters: %s=%s: the "
				     "file name must end in .prom (the only "
				     "files node_exporter's textfile collector "
				     "reads)", key, v);
			goto bad;
		}
		*value = g_strdup(v);
	}
	g_strfreev(items);
	return *value ? 1 : 0;
bad:
	g_free(*value);
	*value = NULL;
	g_strfreev(items);
	return -1;
}
