/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_sacctmgr: the association dump of `sacctmgr -P -n show assoc`
 * (Account|User|ParentName|Fairshare, optionally Cluster first and a
 * Partition column) built into a tree (mf_snapshot_load_cluster), with a
 * usage dump when the bytes hold a line "%%": what comes before it is the
 * assoc file, what comes after the usage file (sshare -P or assoc_mgr).
 * Read once for a file of one cluster and once picking cluster "c1".
 */
#include "fuzz_util.h"

#include "snapshot.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void _load(const char *assoc, const char *usage, const char *cluster)
{
	mf_error_t err = { { 0 } };
	mf_tree_t *tree = mf_snapshot_load_cluster(assoc, usage, cluster,
						   &err);

	if (!tree && !err.text[0])
		abort();
	mf_tree_destroy(tree);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *a, *u;
	size_t alen, ulen;
	char apath[32], upath[32];
	int afd, ufd = -1;

	fuzz_split(data, size, &a, &alen, &u, &ulen);
	afd = fuzz_file(a, alen, apath);
	if (u)
		ufd = fuzz_file(u, ulen, upath);
	_load(apath, u ? upath : NULL, NULL);
	_load(apath, u ? upath : NULL, "c1");
	fuzz_file_close(afd);
	if (ufd >= 0)
		fuzz_file_close(ufd);
	return 0;
}
