#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""metrics-compare.py: one metrics family against sshare or sprio.

  metrics-compare.py --file FILE.prom   --family F --sshare S [--sprio P]
  metrics-compare.py --prom URL         --family F --sshare S [--sprio P]
  metrics-compare.py --prom URL --dashboard DASHBOARD.json

The family's samples come from the text file, or from Prometheus's HTTP
API (URL/api/v1/query?query=F, the latest value of each series).  S is
`sshare -a -l -P` output, P `sprio -l` output, both taken at the same
moment as the figures (no tick in between).

Association families are matched to sshare's rows by (account, user,
partition); each sshare row must have its sample and each sample its row,
an empty sshare field no sample; values equal to sshare's printing (%f:
within 1.5e-6; RawUsage, printed whole: within 1); the depth label is
sshare's indentation, the parent label the enclosing account.  Pending
families are summed per (user, partition) and compared with sprio's rows
(count, sum, highest of PRIORITY, and the PRIORITY of the lowest job id:
the one submitted first when jobs were submitted one after another).

--dashboard runs every "expr" of a Grafana dashboard (its panels' targets,
with $__rate_interval and $__range as 1m and 5m, every $variable as .*) and
requires each to return data.
Exit 0 when every check holds; each failure is printed.
"""
import argparse
import json
import math
import re
import sys
import urllib.parse
import urllib.request

ASSOC = {
    "mfprio_assoc_shares": "RawShares",
    "mfprio_assoc_shares_norm_ratio": "NormShares",
    "mfprio_assoc_usage_raw_seconds": "RawUsage",
    "mfprio_assoc_usage_effective_ratio": "EffectvUsage",
    "mfprio_assoc_fairshare_ratio": "FairShare",
    "mfprio_assoc_level_fairshare": "LevelFS",
}
PENDING = {
    "mfprio_pending_jobs": "count",
    "mfprio_pending_priority_summed": "sum",
    "mfprio_pending_priority_highest": "max",
    "mfprio_pending_oldest_priority": "oldest",
}
SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$')
LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"')


def from_file(path, family):
    out = []
    with open(path) as f:
        for line in f:
            m = SAMPLE.match(line.rstrip("\n"))
            if not m or m.group(1) != family:
                continue
            labels = dict(LABEL.findall(m.group(3) or ""))
            out.append((labels, float(m.group(4))))
    return out


def query(url, expr):
    q = urllib.parse.urlencode({"query": expr})
    with urllib.request.urlopen(f"{url}/api/v1/query?{q}", timeout=20) as r:
        reply = json.load(r)
    if reply.get("status") != "success":
        raise RuntimeError(f"{expr}: {reply}")
    return reply["data"]


def from_prom(url, family):
    data = query(url, family)
    return [(s["metric"], float(s["value"][1])) for s in data["result"]]


def sshare_rows(path):
    rows = []
    stack = []
    with open(path) as f:
        lines = [l.rstrip("\n") for l in f if l.strip()]
    head = lines[0].split("|")
    for line in lines[1:]:
        r = dict(zip(head, line.split("|")))
        acct = r["Account"]
        depth = len(acct) - len(acct.lstrip(" "))
        r["Account"] = acct.strip()
        r["depth"] = depth
        if r["User"]:
            r["parent"] = r["Account"]
        else:
            del stack[depth:]
            stack.append(r["Account"])
            r["parent"] = stack[depth - 1] if depth else ""
        rows.append(r)
    return rows


def num(s):
    if s == "":
        return None
    if s in ("inf", "Inf"):
        return math.inf
    if s == "parent":
        return None
    return float(s)


def close(a, b, col):
    if math.isinf(a) or math.isinf(b):
        return a == b
    if col == "RawUsage":
        return abs(a - b) < 1.0 + 1e-9 * abs(b)
    return abs(a - b) <= 1.5e-6 + 1e-9 * abs(b)


def check_assoc(samples, sshare, family):
    col = ASSOC[family]
    bad = []
    got = {}
    for labels, v in samples:
        key = (labels.get("account", ""), labels.get("user", ""),
               labels.get("partition", ""))
        if key in got:
            bad.append(f"{key}: two samples")
        got[key] = (labels, v)
    seen = set()
    for r in sshare:
        key = (r["Account"], r["User"], r.get("Partition", ""))
        seen.add(key)
        want = num(r.get(col, ""))
        # sshare prints root's RawShares empty
        if key not in got:
            if want is not None:
                bad.append(f"{key}: no sample, sshare {col}={r[col]}")
            continue
        labels, v = got[key]
        if want is None:
            bad.append(f"{key}: sample {v}, sshare {col} empty")
            continue
        if not close(v, want, col):
            bad.append(f"{key}: {v} != sshare {col} {r[col]}")
        if labels.get("depth") != str(r["depth"]):
            bad.append(f"{key}: depth {labels.get('depth')} != sshare's "
                       f"{r['depth']}")
        if labels.get("parent", "") != r["parent"]:
            bad.append(f"{key}: parent {labels.get('parent', '')!r} != "
                       f"sshare's {r['parent']!r}")
    for key in got:
        if key not in seen:
            bad.append(f"{key}: a sample with no sshare row")
    return bad, len(seen)


def sprio_rows(path):
    with open(path) as f:
        lines = [l.split() for l in f if l.strip()]
    head = lines[0]
    ji, pi, ui = head.index("JOBID"), head.index("PARTITION"), \
        head.index("USER")
    qi = head.index("PRIORITY")
    agg = {}
    for r in lines[1:]:
        key = (r[ui], r[pi])
        a = agg.setdefault(key, {"count": 0, "sum": 0.0, "max": -1.0,
                                 "first": None})
        p = float(r[qi])
        a["count"] += 1
        a["sum"] += p
        a["max"] = max(a["max"], p)
        # the job submitted first: the lowest id (the test submits them
        # one after the other)
        if a["first"] is None or int(r[ji]) < a["first"]:
            a["first"] = int(r[ji])
            a["oldest"] = p
    return agg


def check_pending(samples, sprio, family):
    what = PENDING[family]
    got = {}
    for labels, v in samples:
        key = (labels.get("user", ""), labels.get("partition", ""))
        if what == "oldest":
            # one account per user and partition here
            if key in got:
                return [f"{key}: several accounts, no single oldest"], 0
            got[key] = v
        elif what == "max":
            got[key] = max(got.get(key, -1.0), v)
        else:
            got[key] = got.get(key, 0.0) + v
    bad = []
    for key, a in sprio.items():
        if key not in got:
            bad.append(f"{key}: no sample, sprio {what} {a[what]}")
        elif abs(got[key] - a[what]) > 0.5:
            bad.append(f"{key}: {got[key]} != sprio {what} {a[what]}")
    for key in got:
        if key not in sprio:
            bad.append(f"{key}: a sample with no sprio row")
    return bad, len(sprio)


def exprs(node):
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "expr" and isinstance(v, str):
                yield v
            else:
                yield from exprs(v)
    elif isinstance(node, list):
        for v in node:
            yield from exprs(v)


def check_dashboard(url, path):
    with open(path) as f:
        dash = json.load(f)
    bad = []
    n = 0
    for e in exprs(dash.get("panels", [])):
        n += 1
        q = e.replace("$__rate_interval", "1m").replace("$__range", "5m")
        q = re.sub(r'"\$\{?[a-zA-Z_]+\}?"', '".*"', q)
        q = re.sub(r'\$\{?[a-zA-Z_]+\}?', '.*', q)
        try:
            data = query(url, q)
        except Exception as ex:    # a query Prometheus refuses
            bad.append(f"{e}: {ex}")
            continue
        if not data["result"]:
            bad.append(f"{e}: no data")
        else:
            print(f"ok: {len(data['result'])} series: {e}")
    if not n:
        bad.append("no expr in the dashboard")
    return bad, n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--file")
    ap.add_argument("--prom")
    ap.add_argument("--family")
    ap.add_argument("--sshare")
    ap.add_argument("--sprio")
    ap.add_argument("--dashboard")
    a = ap.parse_args()
    if a.dashboard:
        bad, n = check_dashboard(a.prom, a.dashboard)
    else:
        samples = from_file(a.file, a.family) if a.file else \
            from_prom(a.prom, a.family)
        if a.family in ASSOC:
            bad, n = check_assoc(samples, sshare_rows(a.sshare), a.family)
        else:
            bad, n = check_pending(samples, sprio_rows(a.sprio), a.family)
        if not samples:
            bad.append(f"{a.family}: no sample at all")
    for b in bad:
        print("FAILED:", b)
    print(f"{a.family or a.dashboard}: {n} rows compared, {len(bad)} "
          f"differences")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
