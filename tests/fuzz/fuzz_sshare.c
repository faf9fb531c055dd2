/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_sshare: the bytes as the usage dump (`sshare -a -P -n -o
 * Account,User,RawUsage`, or an assoc_mgr dump given in its place) over a
 * fixed, valid association tree, so that every usage line meets accounts
 * and users that exist (a, b and root; users alice, bob, carol).
 */
#include "fuzz_util.h"

#include "snapshot.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char _assoc[] =
	"root|||1\n"
	"a||root|40\n"
	"b||root|60\n"
	"a|alice||1\n"
	"a|bob||2\n"
	"b|carol||parent\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	mf_error_t err = { { 0 } };
	char apath[32], upath[32];
	int afd = fuzz_file((const uint8_t *) _assoc, sizeof(_assoc) - 1,
			    apath);
	int ufd = fuzz_file(data, size, upath);
	mf_tree_t *tree = mf_snapshot_load(apath, upath, &err);

	if (!tree && !err.text[0])
		abort();
	mf_tree_destroy(tree);
	fuzz_file_close(ufd);
	fuzz_file_close(afd);
	return 0;
}
