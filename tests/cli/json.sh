#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `mfprio fairshare --json` and `mfprio priority --json` (and --explain):
# the output parses as JSON (Python's parser, which is not ours, refusing
# NaN and Infinity), numbers are numbers, every row is the table's row
# with the same figures, names with quotes, backslashes, tabs, UTF-8 and
# an invalid byte come out as the same string, and the settings used are
# in the output.
. "${TOP_SRCDIR:?set TOP_SRCDIR}/tests/cli/lib.sh"
D="$TOP_SRCDIR/tests/data"
S="$D/priority/small"
J="$D/json"
tab=$T/tab

# check NAME PYTHON-CODE: run the code with `doc` the parsed JSON of $out
# (and `table` the lines of $tab); it prints what is wrong, if anything.
check() {
	name=$1
	if python3 - "$out" "$tab" "$2" >"$err" 2>&1 <<'PY'
import json, sys
def refuse(c):
    raise ValueError("not JSON: " + c)
with open(sys.argv[1], encoding="utf-8") as f:
    doc = json.load(f, parse_constant=refuse)
with open(sys.argv[2], encoding="utf-8", errors="surrogateescape") as f:
    table = f.read().splitlines()
def num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)
problems = []
def want(cond, what):
    if not cond:
        problems.append(what)
exec(sys.argv[3])
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
PY
	then ok "$name"; else bad "$name"; fi
}

# --- priority: the JSON rows are the -P rows, field by field (the -P rows
# are checked against a live sprio in priority.sh)
ROWS='
want(doc["command"] == "priority", "command")
rows = doc["rows"]
want(len(rows) == len(table) - 1, "%d rows, table %d" % (len(rows), len(table) - 1))
for r, line in zip(rows, table[1:]):
    for k in ("job_id", "priority", "job_priority", "sum", "site", "nice"):
        want(num(r[k]), "%s: %r is not a number" % (k, r[k]))
    for k, v in list(r["weighted"].items()) + list(r["factors"].items()):
        if k != "tres":
            want(num(v), "%s: %r is not a number" % (k, v))
    w = r["weighted"]
    tres = ",".join("%s=%.0f" % (n, v) for n, v in w["tres"].items() if v)
    f = [str(r["job_id"]), r["partition"], r["user"], str(r["priority"]),
         "%.0f" % r["site"], "%.0f" % w["age"], "%.0f" % w["assoc"],
         "%.0f" % w["fairshare"], "%.0f" % w["jobsize"],
         "%.0f" % w["partition"], "%.0f" % w["qos"], "%.0f" % r["nice"], tres]
    want("|".join(f) == line, "json %s != table %s" % ("|".join(f), line))
'
for C in "$D"/priority/cluster/*/; do
	v=$(basename "$C")
	args="--conf $C/slurm.conf --jobs $C/jobs --qos $C/qos --assoc $C/assoc --usage $C/usage --assoc-prio $C/assoc-prio --now $(cat "$C/now")"
	"$MFPRIO" priority $args -P >"$tab" 2>/dev/null
	if "$MFPRIO" priority $args --json >"$out" 2>"$err"; then
		check "cluster $v: priority --json rows are the -P rows" "$ROWS"
	else bad "cluster $v: priority --json runs"; fi
done

# the settings: what the conf says (tests/data/priority/small/slurm.conf),
# the inputs and the time given
BASE=(--conf "$S/slurm.conf" --qos "$S/qos.txt" --assoc "$S/assoc.txt" --usage "$S/usage.txt" --now 1700000000 --jobs "$S/jobs.txt")
"$MFPRIO" priority "${BASE[@]}" -P >"$tab" 2>/dev/null
"$MFPRIO" priority "${BASE[@]}" --json >"$out" 2>"$err"
check "small fixture: priority --json rows are the -P rows" "$ROWS"
check "small fixture: the settings used" '
s = doc["settings"]
want(s["now"] == 1700000000, "now %r" % s["now"])
want(s["inputs"]["jobs"].endswith("/small/jobs.txt"), "jobs %r" % s["inputs"]["jobs"])
want(s["inputs"]["assoc_prio"] is None, "assoc_prio %r" % s["inputs"]["assoc_prio"])
want(s["flags"] == ["NO_FAIR_TREE"], "flags %r" % s["flags"])
want(s["fairshare_algorithm"] == "classic", "algorithm")
want(s["fairshare_dampening"] == 1, "damp")
want(s["weights"] == {"age": 1000, "assoc": 0, "fairshare": 10000, "jobsize": 1000,
     "partition": 2000, "qos": 3000, "tres": {"cpu": 400}}, "weights %r" % s["weights"])
want(s["max_age"] == 864000, "PriorityMaxAge=10-0 is 864000 s: %r" % s["max_age"])
want(s["decay_half_life"] == 604800, "default half-life 7 days: %r" % s["decay_half_life"])
want(s["release"] == "22.05", "release %r" % s["release"])
want(s["set"] == [], "set")
'
# job 101 (hand-computed in priority.sh): age 1/10 day 0.1 -> 100, classic
# fair-share 2^(-.875/.5) = 0.2973018 -> 2973.018, size 0.25 -> 250,
# partition 10/20 -> 1000, TRES 4/16 CPUs * 400 = 100: sum 4423.018
check "small fixture: job 101's figures unrounded" '
r = [x for x in doc["rows"] if x["job_id"] == 101][0]
want(abs(r["sum"] - 4423.0177875) < 1e-6, "sum %r" % r["sum"])
want(abs(r["factors"]["fairshare"] - 2 ** (-0.875 / 0.5)) < 1e-12, "fs %r" % r["factors"]["fairshare"])
want(r["factors"]["age"] == 0.1 and r["weighted"]["age"] == 100, "age")
want(r["weighted"]["tres"] == {"cpu": 100}, "tres %r" % r["weighted"]["tres"])
want(r["job_priority"] == 4423 and r["priority"] == 4423, "priority")
'

# --- --explain --json: job 106 (priority.sh: 6810.73 -> 6810; rank 3 of
# 4 rows, 102 in short just above, 101 just below)
if "$MFPRIO" priority "${BASE[@]}" --explain 106 --json >"$out" 2>"$err"; then
	check "explain --json: job 106" '
want(doc["command"] == "priority --explain", "command")
want(doc["job"]["job_id"] == 106 and doc["job"]["qos"] == "low", "job")
want(doc["job_priority"] == 6810 and abs(doc["sum"] - 6810.73208) < 1e-4, "priority %r" % doc["sum"])
f = {x["factor"]: x for x in doc["rows"]}
want(f["qos"]["value"] == 0.1 and f["qos"]["weight"] == 3000 and f["qos"]["weighted"] == 300, "qos %r" % f["qos"])
want(f["jobsize"]["weighted"] == 156.25, "jobsize %r" % f["jobsize"])
total = sum(x["weighted"] for x in doc["rows"]) + doc["site"] - doc["nice"]
want(abs(total - doc["sum"]) < 1e-6, "the rows add up to %r, not %r" % (total, doc["sum"]))
# ranked in its partition (long): 102 there (10058) above it, nothing below
want(doc["rank"] == 2 and doc["rows_ranked"] == 2, "rank")
want(doc["above"]["job_id"] == 102 and doc["above"]["difference"] == 10058 - 6810, "above %r" % doc["above"])
want(doc["below"] is None, "below %r" % doc["below"])
want(doc["above"]["ahead_by"][0] == {"factor": "qos", "by": 2700}, "ahead by qos 3000 - 300")
'
else bad "explain --json: job 106"; fi
"$MFPRIO" priority "${BASE[@]}" --explain 103 --json >"$out" 2>"$err"
if [ $? -eq 1 ] && [ ! -s "$out" ] && grep -q "job 103 is not listed" "$err"
then ok "explain --json of a held job: the error, no JSON"
else bad "explain --json of a held job: the error, no JSON"; fi

# --- fairshare: the JSON rows are the sshare -P rows (checked against a
# live sshare in fairshare.sh); null where sshare prints nothing or inf
FSROWS='
want(doc["command"] == "fairshare", "command")
rows = doc["rows"]
want(len(rows) == len(table) - 1, "%d rows, table %d" % (len(rows), len(table) - 1))
def fmt(v, empty_ok):
    return "%f" % v if v is not None else None
for r, line in zip(rows, table[1:]):
    t = line.split("|")
    want(t[0].strip() == r["account"] and len(t[0]) - len(t[0].lstrip()) == r["depth"], "account %r" % t[0])
    want(t[1] == (r["user"] or ""), "user")
    want(t[2] == ("parent" if r["fairshare_parent"] else "" if r["raw_shares"] is None else str(r["raw_shares"])), "shares %r" % t[2])
    want(t[4] == "%d" % r["raw_usage"], "raw usage %s %r" % (t[4], r["raw_usage"]))
    for i, k in ((3, "norm_shares"), (5, "norm_usage"), (6, "effective_usage"), (7, "fairshare"), (8, "level_fs")):
        v = r[k]
        if v is None:
            want(t[i] in ("", "inf"), "%s: null but the table has %r" % (k, t[i]))
        else:
            want(num(v) and "%f" % v == t[i], "%s: %r, table %r" % (k, v, t[i]))
'
for a in "$D"/fairshare/live/*.assoc; do
	v=$(basename "$a" .assoc)
	case $v in
	classic) flags=NO_FAIR_TREE damp=1 ;;
	classic_damp2) flags=NO_FAIR_TREE damp=2 ;;
	depth_oblivious) flags=DEPTH_OBLIVIOUS damp=1 ;;
	*) flags= damp=1 ;;
	esac
	args="--assoc $a --usage ${a%.assoc}.usage --damp $damp"
	[ -z "$flags" ] || args="$args --flags $flags"
	"$MFPRIO" fairshare -o "$FS9" $args >"$tab" 2>/dev/null
	if "$MFPRIO" fairshare $args --json >"$out" 2>"$err"; then
		check "fairshare $v: --json rows are the table rows" "$FSROWS"
		check "fairshare $v: settings" "
s = doc['settings']
want(s['flags'] == ([] if '$flags' == '' else ['$flags']), 'flags %r' % s['flags'])
want(s['fairshare_dampening'] == $damp, 'damp')
want(s['inputs']['assoc'].endswith('/$v.assoc') and s['inputs']['conf'] is None, 'inputs')
"
	else bad "fairshare $v: --json runs"; fi
done
# from 25.11 sshare leaves an account's FairShare empty under classic too:
# so do the table and its JSON (null)
a=$D/fairshare/live/classic.assoc
for rel in 25.05 25.11; do
	args="--assoc $a --usage ${a%.assoc}.usage --flags NO_FAIR_TREE --release $rel"
	"$MFPRIO" fairshare -o "$FS9" $args >"$tab" 2>/dev/null
	if "$MFPRIO" fairshare $args --json >"$out" 2>"$err"; then
		check "fairshare classic $rel: --json rows are the table rows" "$FSROWS"
		check "fairshare classic $rel: an account's FairShare" "
acct = [r for r in doc['rows'] if r['user'] is None and r['account'] != 'root']
want(acct and all((r['fairshare'] is None) == ('$rel' == '25.11') for r in acct), 'accounts %r' % acct[:1])
"
	else bad "fairshare classic $rel: --json runs"; fi
done
# a snapshot directory (tests/data/snapshot/example): the directory and
# the files used (assoc_mgr's usage before sshare's) are in the settings
X="$D/snapshot/example"
"$MFPRIO" fairshare -o "$FS9" --snapshot "$X" >"$tab" 2>/dev/null
if "$MFPRIO" fairshare --snapshot "$X" --json >"$out" 2>"$err"; then
	check "fairshare --snapshot: --json rows are the table rows" "$FSROWS"
	check "fairshare --snapshot: the directory and files in the settings" '
i = doc["settings"]["inputs"]
want(i["snapshot"].endswith("/snapshot/example"), "snapshot %r" % i["snapshot"])
want(i["assoc"].endswith("/example/assoc") and i["usage"].endswith("/example/assoc-mgr"), "inputs %r" % i)
'
else bad "fairshare --snapshot --json runs"; fi
# under Fair Tree root|root has no usage: LevelFS inf (sshare), null here
"$MFPRIO" fairshare --assoc "$D/fairshare/live/fair_tree.assoc" \
	--usage "$D/fairshare/live/fair_tree.usage" --json >"$out" 2>"$err"
check "fairshare: LevelFS inf is null" '
r = [x for x in doc["rows"] if x["account"] == "root" and x["user"] == "root"][0]
want(r["level_fs"] is None and r["effective_usage"] == 0, "root|root %r" % r)
'

# --- names: a quote, a backslash, a tab, UTF-8 (tests/data/json/assoc.txt);
# a byte that is not UTF-8 in a user name (jobs.txt job 7) becomes U+FFFD
"$MFPRIO" fairshare --assoc "$J/assoc.txt" --usage "$J/usage.txt" --json \
	>"$out" 2>"$err"
check "fairshare: names with a quote, a backslash, a tab, UTF-8" '
names = [(r["account"], r["user"]) for r in doc["rows"]]
want(("q\"uote\\back", None) in names, "account q\"uote\\back: %r" % names)
want(("q\"uote\\back", "\u00fc-ser") in names, "user \u00fc-ser")
want(("q\"uote\\back", "tab\tuser") in names, "user tab<TAB>user")
r = [x for x in doc["rows"] if x["user"] == "\u00fc-ser"][0]
want(r["raw_usage"] == 100, "usage of the quoted account read: %r" % r["raw_usage"])
'
if grep -qF '"q\"uote\\back"' "$out" && grep -qF '"tab\tuser"' "$out" &&
	grep -q "$(printf '\303\274-ser')" "$out"
then ok "fairshare: the escapes as written (\\\", \\\\, \\t; UTF-8 as is)"
else bad "fairshare: the escapes as written"; fi
"$MFPRIO" priority --conf "$J/slurm.conf" --qos "$J/qos.txt" --jobs "$J/jobs.txt" \
	--assoc "$J/assoc.txt" --usage "$J/usage.txt" --now 1700000000 --json \
	>"$out" 2>"$err"
check "priority: names with a quote, a backslash, UTF-8; a bad byte" '
r = {x["job_id"]: x for x in doc["rows"]}
want(r[101]["account"] == "q\"uote\\back" and r[101]["user"] == "\u00fc-ser", "job 101 %r" % r[101])
want(r[7]["user"] == "bad\ufffdbyte", "job 7 %r" % r[7]["user"])
# classic (the conf has NO_FAIR_TREE): the quoted account has 2 shares of
# 3 and 100 of the 150 units of usage, all of it its user ü-ser (1 share
# of 2): usage 2/3, effective 2/3 (its account is also at 2/3), shares
# 1/2 * 2/3 = 1/3: 2^(-(2/3)/(1/3)) = 2^-2 = 0.25
want(r[101]["factors"]["fairshare"] == 0.25, "fs %r" % r[101]["factors"]["fairshare"])
'

finish
