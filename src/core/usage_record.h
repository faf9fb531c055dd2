/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * usage_record: the plugin's own record of the usage it has charged, as
 * text, so that a controller killed between two of its own saves loses no
 * more than one PriorityCalcPeriod of usage (the plugin writes it after
 * each decay tick; mfp_record.h).
 *
 * The text, one item a line, fields separated by one space:
 *
 *   mfprio-usage-record 1
 *   cluster NAME
 *   time T                      (the tick the figures are of, Unix time)
 *   tres N                      (slurmctld's TRES count)
 *   assocs COUNT HASH           (every association slurmctld had, with the
 *                                hash of their ids: mf_usage_ids_hash)
 *   a ID RAW WALL [I:V ...]     (an association with usage: raw usage, wall
 *   q ID RAW WALL [I:V ...]      seconds, and per TRES index I its usage V;
 *                                a QOS alike; numbers as C hex floats, so
 *                                that they read back exactly)
 *   sum SHA256                  (of every byte before this line)
 *
 * A record cut anywhere, or changed, fails its sum and is refused as a
 * whole.  Pure: no I/O, no logging.  Uses GLib.
 */
#ifndef MFPRIO_USAGE_RECORD_H
#define MFPRIO_USAGE_RECORD_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <glib.h>

#include "mf_error.h"

/* The usage of one association or QOS. */
typedef struct {
	uint32_t id;
	long double raw;        /* usage_raw */
	double wall;            /* grp_used_wall */
	long double *tres;      /* the record's tres_cnt values (owned by
				 * the record) */
} mf_rec_entry_t;

typedef struct {
	char *cluster;          /* g_malloc'd */
	time_t time;
	uint32_t tres_cnt;
	uint32_t assoc_total;   /* associations slurmctld had */
	uint64_t assoc_hash;    /* mf_usage_ids_hash of their ids */
	GArray *assocs;         /* mf_rec_entry_t */
	GArray *qos;            /* mf_rec_entry_t */
} mf_usage_record_t;

/* An empty record of TRES_CNT TRES for CLUSTER (copied) at time T. */
void mf_usage_record_init(mf_usage_record_t *r, const char *cluster,
			  time_t t, uint32_t tres_cnt);

/* Add an entry (IS_QOS: to the QOS) and return its TRES array
 * (tres_cnt zeros) for the caller to fill. */
long double *mf_usage_record_add(mf_usage_record_t *r, int is_qos,
				 uint32_t id, long double raw, double wall);

/* Free what R holds (R itself is the caller's); R is empty after. */
void mf_usage_record_clear(mf_usage_record_t *r);

/* An order-free hash of N ids: the same set gives the same hash. */
uint64_t mf_usage_ids_hash(const uint32_t *ids, size_t n);

/* R as text (g_malloc'd, NUL-terminated; *LEN its length). */
char *mf_usage_record_format(const mf_usage_record_t *r, size_t *len);

/*
 * Read a record from TEXT (LEN bytes) into OUT (initialized here).
 * Returns 0, or -1 with ERR naming the line and what is wrong (OUT then
 * holds nothing).
 */
int mf_usage_record_parse(const char *text, size_t len,
			  mf_usage_record_t *out, mf_error_t *err);

#endif
