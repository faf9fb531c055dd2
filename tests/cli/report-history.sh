#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# mfprio report --html --history HDIR: the History section's figures.
# HDIR is built here from tests/data/snapshot/example: four snapshots a
# day apart whose sshare dumps are the example's with each user's usage
# changed by awk (their names out of time order: the page must follow the
# time files; account lab not yet in the first: null there), a fifth with a bad usage line and a sixth without a time
# file (both skipped with a warning naming them).  The figures the page
# embeds are checked against figures computed below (python3) from those
# assoc and usage files, never from mfprio's output: under Fair Tree an
# account's normalized shares are its FairShare over its siblings' (users
# of the same parent too, FairShare=parent ones not counted), its
# effective usage its users' usage summed over its subtree over its
# parent's, its LevelFS the first over the second; under the classic
# algorithm a child of root's effective usage is its usage over the
# whole and its fair-share factor 2^(-usage/shares) (dampening 1).  The
# accounts' order is the gap ranking (|usage - shares|, largest first,
# then by name) of the page's own snapshot.
. "${TOP_SRCDIR:?set TOP_SRCDIR}/tests/cli/lib.sh"
if ! command -v python3 >/dev/null 2>&1; then
	echo "# no python3: the embedded JSON cannot be read; skipped"
	exit 77
fi
EX=$TOP_SRCDIR/tests/data/snapshot/example
H=$T/hist

# snap DIR TIME K: a snapshot of the example in DIR at TIME, each user's
# usage u made u * (1 + K) + 37 K mod 100 (the account rows, which mfprio
# ignores, left as they are); no assoc-mgr, so that the sshare dump is
# the usage read
snap() {
	mkdir -p "$1"
	cp "$EX/assoc" "$EX/slurm.conf" "$EX/include-1-priority.conf" \
		"$EX/slurm-version" "$1/"
	echo "$2" >"$1/time"
	awk -F'|' -v k="$3" 'BEGIN { OFS = "|" }
		NR > 1 && $2 != "" { $3 = $3 * (1 + k) + (37 * k) % 100 }
		{ print }' "$EX/usage" >"$1/usage"
}
# names not in time order: d is the first, a the last
snap "$H/d" 1699740800 0
# lab is not there yet in the first one (its figures there: null)
sed -i '/^ *lab|/d' "$H/d/assoc" "$H/d/usage"
snap "$H/b" 1699827200 1
snap "$H/c" 1699913600 2
snap "$H/a" 1700000000 3
# the page's own snapshot: examples/snapshot (the same tree, with its
# jobs, qos and a slurm.conf with partitions) with a's usage and time
mkdir "$T/now"
cp "$TOP_SRCDIR"/examples/snapshot/* "$T/now/"
cp "$H/a/usage" "$H/a/time" "$T/now/"
# a cut dump and one being taken (no time file)
snap "$H/e-bad" 1699950000 1
printf 'theory|alice|12x\n' >>"$H/e-bad/usage"
mkdir "$H/f-taking"
cp "$EX/assoc" "$H/f-taking/"
echo "a cron log, not a directory: ignored" >"$H/snap.log"
# Fair Tree: the same without the PriorityFlags=NO_FAIR_TREE lines (the
# example has one in its include too)
cp -r "$H" "$T/ft"
cp -r "$T/now" "$T/ftnow"
sed -i '/^PriorityFlags=/d' "$T"/ft/*/slurm.conf "$T"/ft/*/include-1-priority.conf "$T/ftnow/slurm.conf"

# embedded PAGE ID: the text of the data element ID, \u003c back to '<'
embedded() {
	python3 - "$1" "$2" <<'PY'
import re, sys
page = open(sys.argv[1]).read()
m = re.search(r'<script type="application/json" id="%s">(.*?)</script>' % sys.argv[2], page, re.S)
sys.stdout.write(m.group(1).replace("\\u003c", "<") if m else "")
PY
}

# verify ALGO HDIR NOWDIR PAGE_JSON: the figures of PAGE_JSON against
# those computed from HDIR's and NOWDIR's files; prints what it checked
verify() {
	python3 - "$@" <<'PY'
import json, math, os, sys
algo, hdir, nowdir, page = sys.argv[1:5]
h = json.load(open(page))

def tree(d):
    """accounts: name -> (parent, shares); users: [(account, shares)];
    raw usage per account summed over its subtree (users' rows only)"""
    acc, users = {}, []
    for line in open(os.path.join(d, "assoc")):
        if line.startswith("Account|"):
            continue
        a, u, p, s = line.rstrip("\n").split("|")
        if u:
            users.append((a, s))
        elif a != "root":
            acc[a] = (p, int(s))
    raw = dict.fromkeys(list(acc) + ["root"], 0.0)
    for line in open(os.path.join(d, "usage")):
        a, u, v = line.rstrip("\n").split("|")
        if a.strip() == "Account" or not u:
            continue
        a = a.strip()
        while True:
            raw[a] += float(v)
            if a == "root":
                break
            a = acc[a][0]
    sib = {}
    for a, (p, s) in acc.items():
        sib[p] = sib.get(p, 0) + s
    for a, s in users:
        if s != "parent":
            sib[a] = sib.get(a, 0) + int(s)
    return acc, raw, sib

def figures(d):
    acc, raw, sib = tree(d)
    out = {}
    for a, (p, s) in acc.items():
        if algo == "fair_tree":
            ns = s / sib[p]
            eu = raw[a] / raw[p] if raw[p] else 0.0
            out[a] = dict(norm_shares=ns, effective_usage=eu, raw_usage=raw[a],
                          level_fs=ns / eu if eu else None, fairshare=None)
        elif p == "root":
            ns = s / sib["root"]
            eu = raw[a] / raw["root"]
            out[a] = dict(norm_shares=ns, effective_usage=eu, raw_usage=raw[a],
                          level_fs=None, fairshare=2 ** (-eu / ns))
        else:
            out[a] = dict(raw_usage=raw[a], level_fs=None)
    return out

def close(x, y):
    if x is None or y is None:
        return x is None and y is None
    return abs(x - y) <= 1e-5 * max(1.0, abs(y))

# the snapshots: every directory with a time file, by time
times = {}
for n in os.listdir(hdir):
    t = os.path.join(hdir, n, "time")
    if os.path.isfile(t) and not n.startswith("e-bad"):
        times[n] = int(open(t).read())
order = sorted(times, key=lambda n: (times[n], n))
got = [(s["name"], s["time"], s["algorithm"]) for s in h["snapshots"]]
assert got == [(n, times[n], algo) for n in order], got
assert [s["name"] for s in h["skipped"]] == ["e-bad", "f-taking"], h["skipped"]
n = 0
every = set()
for i, name in enumerate(order):
    want = figures(os.path.join(hdir, name))
    every |= set(want)
    for a in h["accounts"]:
        if a["account"] not in want:
            # not in that snapshot: every figure null
            assert all(a[k][i] is None for k in ("norm_shares", "effective_usage",
                       "raw_usage", "level_fs", "fairshare")), (name, a)
            n += 5
            continue
        for k, v in want[a["account"]].items():
            assert close(a[k][i], v), (name, a["account"], k, a[k][i], v)
            n += 1
assert sorted(a["account"] for a in h["accounts"]) == sorted(every)
assert "lab" not in figures(os.path.join(hdir, order[0]))
# the order: the gap ranking of the page's own snapshot
now = figures(nowdir)
if algo == "fair_tree":
    rank = sorted(now, key=lambda a: (-abs(now[a]["effective_usage"] - now[a]["norm_shares"]), a))
    assert [a["account"] for a in h["accounts"]] == rank, [a["account"] for a in h["accounts"]]
    print("%d figures of %d accounts in %d snapshots; ranked %s" % (n, len(now), len(order), ",".join(rank)))
else:
    print("%d figures of %d accounts in %d snapshots" % (n, len(now), len(order)))
PY
}

mf report --html "$T/ft.html" --snapshot "$T/ftnow" --history "$T/ft"
has "Fair Tree history: exit 0" 0
in=$err has "the cut dump and the one being taken: warned about, each named" 0 \
	"mfprio: warning: $T/ft/e-bad/usage:16: RawUsage '12x' is not a number >= 0 (left out of the history)" \
	"mfprio: warning: $T/ft/f-taking: no file 'time' in it: not a snapshot directory (left out of the history)"
embedded "$T/ft.html" data-history >"$T/ft.json"
if verify fair_tree "$T/ft" "$T/ftnow" "$T/ft.json" >"$out" 2>"$err"; then
	ok "Fair Tree: shares, usage, LevelFS per snapshot, time order, gap order ($(cat "$out"))"
else
	bad "Fair Tree: the page's history against the files"
fi
grep -q "history from the snapshots in $T/ft\." "$T/ft.html" &&
	ok "the page's first lines name HDIR" || bad "the page's first lines name HDIR"

mf report --html "$T/cl.html" --snapshot "$T/now" --history "$H"
has "classic history: exit 0" 0
embedded "$T/cl.html" data-history >"$T/cl.json"
if verify classic "$H" "$T/now" "$T/cl.json" >"$out" 2>"$err"; then
	ok "classic: shares, usage and fair-share factor of root's children ($(cat "$out"))"
else
	bad "classic: the page's history against the files"
fi
# the what-ifs apply to the history too: --flags NO_FAIR_TREE on the
# Fair Tree snapshots gives the classic figures
mf report --html "$T/wi.html" --snapshot "$T/ftnow" --history "$T/ft" --flags NO_FAIR_TREE
embedded "$T/wi.html" data-history >"$T/wi.json"
if verify classic "$T/ft" "$T/ftnow" "$T/wi.json" >"$out" 2>"$err"; then
	ok "--flags NO_FAIR_TREE: the history computed as classic too"
else
	bad "--flags NO_FAIR_TREE: the history computed as classic too"
fi

# without --history: null, the page says where a history comes from
mf report --html "$T/no.html" --snapshot "$T/now"
check "without --history: the data is null" [ "$(embedded "$T/no.html" data-history)" = null ]
mf report --help
has "--help: --history HDIR" 0 "--history HDIR" "mfprio snapshot HDIR/"

# more than 200 snapshots: 200 read, the first and last among them
mkdir "$T/many"
i=0
while [ $i -lt 203 ]; do
	d=$T/many/s$i
	mkdir "$d"
	cp "$T/ft/a/assoc" "$T/ft/a/usage" "$T/ft/a/slurm.conf" "$d/"
	echo $((1699000000 + i * 3600)) >"$d/time"
	i=$((i + 1))
done
mf report --html "$T/many.html" --snapshot "$T/ftnow" --history "$T/many"
embedded "$T/many.html" data-history >"$T/many.json"
python3 - "$T/many.json" >"$out" 2>"$err" <<'PY'
import json, sys
h = json.load(open(sys.argv[1]))
t = [s["time"] for s in h["snapshots"]]
assert h["found"] == 203 and len(t) == 200, (h["found"], len(t))
assert t[0] == 1699000000 and t[-1] == 1699000000 + 202 * 3600, (t[0], t[-1])
assert t == sorted(set(t))
assert all(len(a["norm_shares"]) == 200 for a in h["accounts"])
PY
[ $? = 0 ] && ok "203 snapshots: 200 read, the first and the last among them" ||
	bad "203 snapshots: 200 read"

# --history FILE: a file of mfprio replay --json.  One written here (14
# users, 250 samples, a null among them), another by mfprio replay on
# tests/data/replay; the page's users are the file's series in its
# order, the first 200 (MF_HISTORY_MAX_USERS), each of 200 samples spread
# evenly (the first and last kept), figures to 6 significant digits
python3 - "$T/replay.json" <<'PY'
import json, math, sys
users = []
for u in range(14):
    t = [1767225600 + 60 * k for k in range(250)]
    b = [0.5 + 0.4 * math.sin(k / 20 + u) for k in range(250)]
    a = [min(1, x * (1 + u / 20)) for x in b]
    if u == 3:
        a[0] = None
    users.append(dict(account="acct%d" % (u % 4), user="user%02d" % (13 - u), time=t, fs_before=b, fs_after=a))
json.dump(dict(note="hand-made", history="sacct.txt", **{"from": 1767225600, "to": 1767225600 + 60 * 249},
               before=dict(fairshare="fair_tree"), after=dict(fairshare="classic"), series=users,
               final=[], jobs=[], users=[]), open(sys.argv[1], "w"))
PY
mf report --html "$T/rp.html" --snapshot "$T/now" --history "$T/replay.json"
has "--history FILE of replay --json: exit 0" 0
embedded "$T/rp.html" data-history >"$T/rp.page"
python3 - "$T/replay.json" "$T/rp.page" >"$out" 2>"$err" <<'PY'
import json, sys
f, p = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert p["kind"] == "replay" and p["history"] == "sacct.txt"
assert (p["before"], p["after"], p["from"], p["to"]) == ("fair_tree", "classic", f["from"], f["to"])
assert [(u["account"], u["user"]) for u in p["users"]] == [(s["account"], s["user"]) for s in f["series"]]
n = 0
for u, s in zip(p["users"], f["series"]):
    assert len(u["time"]) == 200 and u["time"][0] == s["time"][0] and u["time"][-1] == s["time"][-1]
    assert u["time"] == sorted(set(u["time"]))
    for k, t in enumerate(u["time"]):
        i = s["time"].index(t)
        for side in ("fs_before", "fs_after"):
            want, got = s[side][i], u[side][k]
            assert (want is None and got is None) or abs(got - want) <= 5e-6 * abs(want), (u["user"], t, side, got, want)
            n += 1
assert p["users"][3]["fs_after"][0] is None
print(n)
PY
[ $? = 0 ] && ok "the page's replay: every user in the file's order, 200 of 250 samples, $(cat "$out") factors" ||
	bad "the page's replay against the file"
D=$TOP_SRCDIR/tests/data/replay
"$MFPRIO" replay --conf "$D/slurm.conf" --assoc "$D/assoc" --qos "$D/qos" \
	--from 2026-01-01T00:00:00 --to 2026-01-01T00:03:00 --json "$D/sacct" >"$T/r2.json" 2>/dev/null
mf report --html "$T/r2.html" --snapshot "$T/now" --history "$T/r2.json"
embedded "$T/r2.html" data-history >"$T/r2.page"
python3 - "$T/r2.json" "$T/r2.page" >"$out" 2>"$err" <<'PY'
import json, sys
f, p = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
got = [(u["account"], u["user"], u["time"], u["fs_before"], u["fs_after"]) for u in p["users"]]
assert got == [(s["account"], s["user"], s["time"], s["fs_before"], s["fs_after"]) for s in f["series"]], got
assert got, "no series"
PY
[ $? = 0 ] && [ "$rc" = 0 ] && ok "mfprio replay --json's own output as --history FILE: its series on the page" ||
	bad "mfprio replay --json's own output as --history FILE"
echo '{"series": []}' >"$T/notreplay.json"
refused "--history FILE that is JSON of something else: exit 1" 1 \
	"mfprio: $T/notreplay.json: not the output of mfprio replay --json" \
	report --html "$T/x.html" --snapshot "$T/now" --history "$T/notreplay.json"
printf '{"from": 1,\n "to": ' >"$T/cut.json"
refused "--history FILE cut short: exit 1, file and line" 1 \
	"mfprio: $T/cut.json:2:" \
	report --html "$T/x.html" --snapshot "$T/now" --history "$T/cut.json"
sed 's/"fs_after": \[null, /"fs_after": [/' "$T/replay.json" >"$T/short.json"
refused "--history FILE with a series of 249 factors for 250 times: exit 1" 1 \
	"mfprio: $T/short.json: series 4 (acct3/user10): 250 times but 250 and 249 factors" \
	report --html "$T/x.html" --snapshot "$T/now" --history "$T/short.json"

# errors: the directory named, exit 1; --user takes no --history (2)
refused "--history of a missing directory: exit 1" 1 \
	"mfprio: $T/nope: cannot read it as a directory of snapshots" \
	report --html "$T/x.html" --snapshot "$T/now" --history "$T/nope"
# a plain file is taken for replay --json's output
refused "--history of a plain file not JSON: exit 1, as replay --json's" 1 \
	"mfprio: $H/snap.log:1:" \
	report --html "$T/x.html" --snapshot "$T/now" --history "$H/snap.log"
refused "--history of one snapshot: exit 1, said so" 1 \
	"mfprio: $H/a: no snapshot in it (a directory of directories, each written by mfprio snapshot): it is one snapshot itself; give the directory that holds the snapshots" \
	report --html "$T/x.html" --snapshot "$T/now" --history "$H/a"
mkdir "$T/empty"
refused "--history of an empty directory: exit 1" 1 \
	"mfprio: $T/empty: no snapshot in it" \
	report --html "$T/x.html" --snapshot "$T/now" --history "$T/empty"
mkdir "$T/bad"
cp -r "$H/e-bad" "$H/f-taking" "$T/bad/"
refused "--history with no readable snapshot: exit 1, the first reason" 1 \
	"mfprio: $T/bad: none of its 2 directories could be read as a snapshot (the first: $T/bad/e-bad/usage:16:" \
	report --html "$T/x.html" --snapshot "$T/now" --history "$T/bad"
check "no page written after an error" [ ! -e "$T/x.html" ]
refused "--history with --user: usage error" 2 \
	"report: --history is for the cluster's page, not --user's" \
	report --html "$T/x.html" --snapshot "$T/now" --user dave --history "$H"
finish
