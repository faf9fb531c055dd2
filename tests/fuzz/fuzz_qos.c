/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_qos: the bytes as the two small '|' dumps the priority command
 * reads, `sacctmgr -P -n show qos format=Name,Priority` (mf_qos_load) and
 * `sacctmgr -P -n show assoc format=Account,User,Priority`
 * (mf_assoc_prio_load).
 */
#include "fuzz_util.h"

#include "jobs_input.h"
#include "qos_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	mf_error_t err = { { 0 } };
	char path[32];
	int fd = fuzz_file(data, size, path);
	GHashTable *t = mf_qos_load(path, &err);

	if (!t && !err.text[0])
		abort();
	if (t)
		g_hash_table_unref(t);
	err.text[0] = '\0';
	t = mf_assoc_prio_load(path, &err);
	if (!t && !err.text[0])
		abort();
	if (t)
		g_hash_table_unref(t);
	fuzz_file_close(fd);
	return 0;
}
