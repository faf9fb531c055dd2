#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""soak-compare.py: the usage two clusters' plugins hold, against each other
and against what sacct says each cluster ran (test-soak.sh).

Usage: soak-compare.py --layout LAYOUT --halflife SECS --tol PCT
           --cluster NAME SSHARE SACCT LAST_RAN  (twice: ours, then upstream)
           --summary FILE

SSHARE: `sshare -a -P -o Account,User,RawUsage,GrpTRESRaw`.  SACCT:
`sacct -a -D -X -n -P -o JobIDRaw,JobName,Account,User,Partition,State,
Start,End,ElapsedRaw,Suspended,AllocTRES` with SLURM_TIME_FORMAT=%s (every
run of every job, requeued runs included).  LAST_RAN: the time of the
cluster's last decay pass (its usage is as of then).  LAYOUT: the
"account PARENT NAME" lines of the associations' tree.

What sacct says an association used: for every run with a start and an
end, each TRES of AllocTRES (billing, cpu, mem in MB, node, gres/gpu)
times its seconds from Start to End, suspended time included (both
plugins charge a suspended job as running: see doc/robustness.md), each
second decayed to LAST_RAN as the plugins decay it
(d = 1 - ln2/halflife a second; 0 = no decay); a user's runs count for its
association and every account above it.  The same with ElapsedRaw
(which leaves the suspended time out) is printed too.  GrpTRESRaw is in
whole TRES-minutes (cut) on sshare: it is compared as TRES-seconds, a
figure allowed 60 TRES-seconds under its sacct besides the tolerance.

Prints a table of every association and TRES and writes the verdicts, one
a line "NAME PASS|FAIL detail", to FILE:
  ours_sacct       every figure of ours within PCT % of its cluster's sacct
  upstream_sacct   the same for upstream's (a shortfall: upstream lost usage)
  ours_upstream    every figure of ours within PCT % of upstream's, where
                   upstream is within PCT % of its sacct and the two
                   clusters' sacct agree within PCT %; elsewhere within PCT
                   % of sacct (counted in ours_sacct) and listed
  normalised       ours/sacct and upstream/sacct within PCT points of each
                   other, where upstream did not lose usage
  (these two may judge no figure, when upstream is off its sacct or the
  days differ on every one: they pass then only if ours_sacct judged every
  figure and passed, and their line says why none was comparable; every
  other check that judged nothing fails)
  clusters         the two clusters' sacct figures within PCT % of each
                   other (how alike the two days were; not a plugin check)
"""
import argparse
import math
import sys

TRES = ("billing", "cpu", "mem", "node", "gres/gpu")
MIN_FIGURE = 600.0  # TRES-seconds below which a figure is not judged


def mem_mb(v):
    mult = {"K": 1.0 / 1024, "M": 1.0, "G": 1024.0, "T": 1024.0 ** 2, "P": 1024.0 ** 3}
    if v and v[-1] in mult:
        return float(v[:-1]) * mult[v[-1]]
    return float(v)


def parse_tres(s):
    out = {}
    for item in s.split(","):
        k, eq, v = item.partition("=")
        if not eq:
            continue
        try:
            out[k] = mem_mb(v) if k == "mem" else float(v)
        except ValueError:
            pass
    return out


def dur(s):
    """sacct's [D-]HH:MM:SS (or MM:SS) in seconds."""
    if not s:
        return 0
    days = 0
    if "-" in s:
        d, s = s.split("-", 1)
        days = int(d)
    parts = [int(float(p)) for p in s.split(":")]
    secs = 0
    for p in parts:
        secs = secs * 60 + p
    return days * 86400 + secs


def load_layout(path):
    parent = {}
    for line in open(path):
        w = line.split()
        if len(w) == 4 and w[0] == "account":
            parent[w[2]] = w[1]
    return parent


def chain(acct, parent):
    """ACCT and every account above it, root included."""
    out = [acct]
    while acct in parent:
        acct = parent[acct]
        out.append(acct)
    if out[-1] != "root":
        out.append("root")
    return out


class Side:
    def __init__(self, name, sshare, sacct, last_ran, parent, hl):
        self.name = name
        self.last_ran = float(open(last_ran).read().split()[0])
        self.plugin = {}
        for line in open(sshare):
            f = line.rstrip("\n").split("|")
            if len(f) < 4 or f[2] == "RawUsage":
                continue
            key = (f[0].strip(), f[1].strip())
            t = parse_tres(f[3])
            row = {k: t.get(k, 0.0) * 60.0 for k in TRES}
            row["raw"] = float(f[2] or 0)
            self.plugin[key] = row
        self.exp, self.exp_elapsed = {}, {}
        self.runs = self.open_runs = self.susp_secs = 0
        self.seen = {"raw"}  # the TRES sacct's AllocTRES shows at all
        lnd = math.log(1 - math.log(2) / hl) if hl > 0 else 0.0
        for line in open(sacct):
            f = line.rstrip("\n").split("|")
            if len(f) < 11:
                continue
            _, _, acct, user, _, state, start, end, elapsed, susp, alloc = f[:11]
            try:
                s, e = float(start), float(end)
            except ValueError:
                if start not in ("", "Unknown", "None") and end in ("", "Unknown", "None"):
                    self.open_runs += 1
                continue
            if e <= s:
                continue
            self.runs += 1
            sus = dur(susp)
            self.susp_secs += sus
            if lnd:
                w = (math.exp(lnd * (self.last_ran - e)) -
                     math.exp(lnd * (self.last_ran - s))) / -lnd
            else:
                w = e - s
            frac = w / (e - s)
            t = parse_tres(alloc)
            self.seen.update(k for k in TRES if t.get(k))
            for a in chain(acct, parent):
                keys = [(a, "")]
                if a == acct:
                    keys.append((acct, user))
                for key in keys:
                    row = self.exp.setdefault(key, {k: 0.0 for k in TRES + ("raw",)})
                    acc = self.exp_elapsed.setdefault(key, 0.0)
                    for k in TRES:
                        row[k] += t.get(k, 0.0) * w
                    row["raw"] += t.get("billing", 0.0) * w
                    self.exp_elapsed[key] = acc + t.get("billing", 0.0) * float(elapsed or 0) * frac


def rel(a, b):
    return (a - b) / b if b else (0.0 if a == 0 else float("inf"))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--layout", required=True)
    p.add_argument("--halflife", type=float, required=True)
    p.add_argument("--tol", type=float, default=0.5)
    p.add_argument("--cluster", nargs=4, action="append", required=True)
    p.add_argument("--summary", required=True)
    a = p.parse_args()
    parent = load_layout(a.layout)
    ours, up = (Side(*c, parent, a.halflife) for c in a.cluster[:2])
    tol = a.tol / 100.0
    bad = {k: [] for k in ("ours_sacct", "upstream_sacct", "ours_upstream",
                           "normalised", "clusters")}
    judged = {k: 0 for k in bad}
    keys = sorted(set(ours.exp) | set(up.exp) | set(ours.plugin) | set(up.plugin),
                  key=lambda k: (k[0] != "root", k[0], k[1]))
    print("%-10s %-8s %14s %14s %8s %14s %14s %8s %8s %8s" % (
        "assoc", "tres", "sacct(ours)", "ours", "o/sacct", "sacct(up)",
        "upstream", "u/sacct", "o/u", "sacct o/u"))
    for key in keys:
        name = key[0] + ("/" + key[1] if key[1] else "")
        for t in ("raw",) + TRES:
            eo = ours.exp.get(key, {}).get(t, 0.0)
            eu = up.exp.get(key, {}).get(t, 0.0)
            po = ours.plugin.get(key, {}).get(t, 0.0)
            pu = up.plugin.get(key, {}).get(t, 0.0)
            if max(eo, eu, po, pu) < MIN_FIGURE:
                continue
            ro, ru, rou, rs = rel(po, eo), rel(pu, eu), rel(po, pu), rel(eo, eu)
            label = "RawUsage" if t == "raw" else t
            print("%-10s %-8s %14.0f %14.0f %+7.3f%% %14.0f %14.0f %+7.3f%% %+7.3f%% %+7.3f%%" % (
                name, label, eo, po, 100 * ro, eu, pu, 100 * ru, 100 * rou, 100 * rs))
            what = "%s %s" % (name, label)
            if t not in ours.seen or t not in up.seen:
                continue  # not in AllocTRES (26.11 leaves mem out): shown only
            # sshare prints GrpTRESRaw in whole TRES-minutes, cut: a
            # figure may be up to 60 TRES-seconds under its sacct
            cut_o = 60.0 / eo if t != "raw" and eo else 0.0
            cut_u = 60.0 / eu if t != "raw" and eu else 0.0
            judged["ours_sacct"] += 1
            if not -tol - cut_o <= ro <= tol:
                bad["ours_sacct"].append("%s %+.3f%%" % (what, 100 * ro))
            judged["upstream_sacct"] += 1
            upstream_lost = not -tol - cut_u <= ru <= tol
            if upstream_lost:
                bad["upstream_sacct"].append("%s %+.3f%%" % (what, 100 * ru))
            judged["clusters"] += 1
            if abs(rs) > tol:
                bad["clusters"].append("%s %+.3f%%" % (what, 100 * rs))
            if not upstream_lost:
                judged["normalised"] += 1
                if abs(ro - ru) > tol + cut_o + cut_u:
                    bad["normalised"].append("%s %+.3f points" % (what, 100 * (ro - ru)))
                if abs(rs) <= tol:
                    judged["ours_upstream"] += 1
                    if abs(rou) > tol + max(cut_o, cut_u):
                        bad["ours_upstream"].append("%s %+.3f%%" % (what, 100 * rou))
    for s in (ours, up):
        eo = s.exp.get(("root", ""), {}).get("raw", 0.0)
        el = s.exp_elapsed.get(("root", ""), 0.0)
        print("%s: %d runs ended (%d still open), %d s suspended in all; root's "
              "billing-seconds from Start to End %.0f, by ElapsedRaw %.0f "
              "(%+.3f%%), plugin %.0f" % (
                  s.name, s.runs, s.open_runs, s.susp_secs, eo, el,
                  100 * rel(el, eo), s.plugin.get(("root", ""), {}).get("raw", 0.0)))
    # A check that judged nothing fails, but for the two that compare the
    # plugins: where upstream's plugin is off its own sacct on a figure
    # (a fault it loses usage on, or 26.11's charge at a het job's
    # submission) or the two days differ on it, ours is held to its sacct
    # instead (ours_sacct, which must have judged every figure and passed);
    # the line says so.
    def none_comparable(k):
        return (k in ("ours_upstream", "normalised") and not judged[k] and
                judged["ours_sacct"] and not bad["ours_sacct"])
    with open(a.summary, "w") as f:
        for k, v in bad.items():
            why = ""
            if none_comparable(k):
                why = (" (none comparable: upstream off its sacct on %d, the "
                       "two days apart on %d; ours held to its sacct on all "
                       "%d)" % (len(bad["upstream_sacct"]), len(bad["clusters"]),
                                judged["ours_sacct"]))
            f.write("%s %s %d of %d figures off%s%s\n" % (
                k, "FAIL" if v or (not judged[k] and not none_comparable(k))
                else "PASS", len(v), judged[k], why,
                (": " + "; ".join(v[:12])) if v else ""))
    print(open(a.summary).read(), end="")


if __name__ == "__main__":
    sys.exit(main())
