#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# fetch-release.sh: a release whose source is not beside the clone is
# fetched (tests/cluster/slurm-release.sh find), from a loopback HTTP server
# standing in for SchedMD's download site and holding ../shared/slurm's
# tarballs: fetched once, kept, checked against release/releases.tsv's
# sha256; a tarball that does not match is refused and deleted; no server,
# or a release the server lacks, is a failure that says so.
set -uo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
rel=$top/tests/cluster/slurm-release.sh
shared=$top/../shared/slurm
pass=0 fail=0
ok() { echo "ok: $*"; pass=$((pass + 1)); }
bad() { echo "FAILED: $*"; fail=$((fail + 1)); }
check() { local w=$1; shift; if "$@"; then ok "$w"; else bad "$w"; fi; }

A=23.02.8
B=24.05.8
ta=$("$top/release/releases.sh" get $A source)
tb=$("$top/release/releases.sh" get $B source)
if [[ ! -f $shared/$ta ]]; then
	echo "fetch-release: $shared/$ta is not there: nothing to serve"
	echo "0 passed, 1 failed"
	exit 1
fi
tmp=$(mktemp -d /tmp/mfprio-fetch-XXXXXX)
srv=$tmp/srv
mkdir -p "$srv" "$tmp/none"
ln -s "$shared/$ta" "$srv/$ta"
# a tarball under B's name that is not B's (A's bytes)
cp "$shared/$ta" "$srv/$tb"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$srv" >"$tmp/http.log" 2>&1 &
hpid=$!
trap 'kill $hpid 2>/dev/null; rm -rf "$tmp"' EXIT
for _ in $(seq 50); do
	python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/', timeout=1)" 2>/dev/null && break
	sleep 0.2
done

# find VERSION [URL]: slurm-release.sh find with nothing beside the clone
find_rel() {
	MFPRIO_SLURM_NO_SHARED=1 MFPRIO_SLURM_TARBALLS=$tmp/none MFPRIO_SLURM_DOWNLOADS=$tmp/dl \
		MFPRIO_SLURM_URL=${2:-http://127.0.0.1:$port/} "$rel" find "$1"
}

out=$(find_rel $A 2>"$tmp/a.err")
check "$A is fetched into the downloads directory ($out)" test "$out" == "$tmp/dl/$ta"
check "... and is ../shared's tarball, byte for byte" cmp -s "$out" "$shared/$ta"
check "... its sha256 is the table's" \
	test "$(sha256sum "$out" | cut -d' ' -f1)" == "$("$top/release/releases.sh" get $A sha256)"
check "... and it said where from" grep -q "fetching http://127.0.0.1:$port/$ta" "$tmp/a.err"
gets=$(grep -c "GET /$ta" "$tmp/http.log")
out=$(find_rel $A 2>/dev/null)
check "found again without fetching ($out; $(grep -c "GET /$ta" "$tmp/http.log") requests)" \
	test "$out" == "$tmp/dl/$ta" -a "$(grep -c "GET /$ta" "$tmp/http.log")" -eq "$gets"

out=$(find_rel $B 2>"$tmp/b.err")
rc=$?
check "a tarball that does not match the table's sha256 is refused (exit $rc)" test $rc -ne 0 -a -z "$out"
check "... saying so" grep -q "does not match release/releases.tsv's sha256" "$tmp/b.err"
check "... and nothing of it is kept" bash -c "! ls -A '$tmp/dl' | grep -q '$B'"

v=$("$top/release/releases.sh" tested | tail -n 1)
out=$(find_rel "$v" 2>"$tmp/c.err")
rc=$?
check "a release the server lacks ($v) is not found (exit $rc)" test $rc -ne 0 -a -z "$out"
check "... saying the fetch failed" grep -q "cannot fetch http://127.0.0.1:$port/" "$tmp/c.err"

kill $hpid 2>/dev/null
wait $hpid 2>/dev/null
out=$(find_rel 25.11.7 2>"$tmp/d.err")
rc=$?
check "no server: not found (exit $rc), and said" \
	bash -c "test $rc -ne 0 && grep -q 'cannot fetch' '$tmp/d.err'"
out=$(MFPRIO_SLURM_FETCH=0 find_rel 25.11.7 2>"$tmp/e.err")
check "MFPRIO_SLURM_FETCH=0: nothing fetched" bash -c "! grep -q fetching '$tmp/e.err'"
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
