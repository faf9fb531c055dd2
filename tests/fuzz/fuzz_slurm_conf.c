/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_slurm_conf: the bytes as a slurm.conf (mf_conf_parse), then the
 * priority settings and cluster shape read from it (mf_prio_conf_read,
 * mf_prio_conf_to_config): weights, flags, times, TRES weights, NodeName
 * and PartitionName records with their host lists.
 */
#include "fuzz_util.h"

#include "slurm_conf.h"
#include "priority.h"
#include "priority_conf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	mf_error_t err = { { 0 } };
	mf_conf_t *conf;

	/* a name in a directory that does not exist: a relative Include
	 * names no real file */
	conf = mf_conf_parse(text, "mfprio-fuzz.d/slurm.conf", &err);
	free(text);
	if (!conf) {
		if (!err.text[0])
			abort();        /* a failure must say why */
		return 0;
	}
	mf_prio_conf_t *pc = mf_prio_conf_read(conf, &err);

	if (!pc)
		abort();                /* only a NULL conf may fail */
	mf_prio_config_t cfg;

	mf_prio_conf_to_config(pc, &cfg);
	(void) mf_prio_conf_default_part(pc);
	(void) mf_prio_conf_find_part(pc, "debug");
	mf_prio_conf_free(pc);
	mf_conf_free(conf);
	return 0;
}
