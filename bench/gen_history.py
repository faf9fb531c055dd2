#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Write a year of a big cluster's job history for benchmarking `mfprio replay`.

Usage: gen_history.py DIR NRECORDS [SEED]

DIR receives slurm.conf, qos.txt, assoc.txt (the accounts and users of
gen_jobs.py: 200 accounts under 20 parents, 5000 users, 12 partitions,
8 QOS) and sacct.txt, NRECORDS lines of

  sacct -a -P -n -X -S 2023-01-01 -E 2024-01-01 \\
    -o JobIDRaw,User,Account,Partition,QOS,Submit,Eligible,Start,End,State,AllocTRES,ReqTRES

spread evenly over the year 2023 (UTC: run mfprio with TZ=UTC), in job id
order as sacct prints them.  Jobs of realistic lengths: half under an hour,
a mean of 6 hours (log-uniform between 1 minute and 2 days), one in fifty
of 2 to 7 days; waits of minutes to hours (exponential, mean 30 minutes); 1 to 128
CPUs, billing the CPU count; a job in ten cancelled while pending.  With
PriorityCalcPeriod=5 a year is 105120 ticks.  Only the standard library;
deterministic for a given seed.
"""
import math
import os
import random
import sys
import time

YEAR0 = 1672531200          # 2023-01-01T00:00:00 UTC
YEAR = 365 * 86400


class Times:
    """sacct's time form in UTC, the date part cached by hour."""

    def __init__(self):
        self.hour = {}

    def __call__(self, t):
        h = t // 3600
        p = self.hour.get(h)
        if p is None:
            p = time.strftime("%Y-%m-%dT%H:", time.gmtime(h * 3600))
            self.hour[h] = p
        r = t % 3600
        return "%s%02d:%02d" % (p, r // 60, r % 60)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    out, n = sys.argv[1], int(sys.argv[2])
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 12)
    os.makedirs(out, exist_ok=True)
    nparent, nacct, nuser = 20, 200, 5000
    parts = ["p%02d" % i for i in range(12)]
    qos = ["normal", "high", "low", "debug", "long", "gpu", "scav", "urgent"]

    with open(os.path.join(out, "slurm.conf"), "w") as f:
        f.write("ClusterName=bench\nPriorityType=priority/multifactor\n"
                "AccountingStorageType=accounting_storage/slurmdbd\n"
                "AccountingStorageEnforce=associations,limits,qos\n"
                "PriorityDecayHalfLife=7-0\nPriorityMaxAge=14-0\n"
                "PriorityCalcPeriod=5\n"
                "PriorityWeightAge=10000\nPriorityWeightFairshare=100000\n"
                "PriorityWeightJobSize=1000\nPriorityWeightPartition=5000\n"
                "PriorityWeightQOS=20000\n"
                "NodeName=c[0001-1000] CPUs=64 RealMemory=256000\n"
                "NodeName=g[001-100] CPUs=64 RealMemory=512000\n")
        for i, p in enumerate(parts):
            nodes = "g[001-100]" if i % 4 == 3 else "c[0001-1000]"
            f.write("PartitionName=%s Nodes=%s PriorityJobFactor=%d "
                    "PriorityTier=%d MaxTime=7-0%s\n"
                    % (p, nodes, 1 + 10 * i, 1 + i % 3,
                       " Default=YES" if i == 0 else ""))
    with open(os.path.join(out, "qos.txt"), "w") as f:
        for i, q in enumerate(qos):
            f.write("%s|%d\n" % (q, i * 100))
    users = []
    with open(os.path.join(out, "assoc.txt"), "w") as fa:
        fa.write("root|||1\n")
        for p in range(nparent):
            fa.write("dept%02d||root|%d\n" % (p, rng.randint(1, 100)))
        for a in range(nacct):
            fa.write("acct%03d||dept%02d|%d\n"
                     % (a, a % nparent, rng.randint(1, 50)))
        for u in range(nuser):
            a = u % nacct
            name = "user%04d" % u
            users.append((name, "acct%03d" % a))
            fa.write("acct%03d|%s||%d\n" % (a, name, rng.randint(1, 10)))

    tm = Times()
    lmin, lmax = math.log(60), math.log(2 * 86400)
    cpus_of = [1, 1, 2, 4, 8, 16, 32, 64, 128]
    # users work unevenly: a few heavy ones
    weights = [1.0 / (1 + (u % 97)) for u in range(nuser)]
    picks = rng.choices(range(nuser), weights=weights, k=min(n, 1 << 20))
    with open(os.path.join(out, "sacct.txt"), "w") as f:
        w = f.write
        step = YEAR / max(n, 1)
        for k in range(n):
            user, acct = users[picks[k % len(picks)]]
            submit = YEAR0 + int(k * step)
            elig = submit + (rng.randint(0, 600) if rng.random() < 0.1 else 0)
            cpus = cpus_of[rng.randrange(9)]
            tres = "billing=%d,cpu=%d,mem=%dG,node=%d" % (
                cpus, cpus, cpus * 4, max(1, cpus // 64))
            p = parts[rng.randrange(12)]
            q = qos[rng.randrange(8)]
            if rng.random() < 0.1:
                end = elig + int(rng.expovariate(1 / 1800.0))
                w("%d|%s|%s|%s|%s|%s|%s|None|%s|CANCELLED by 0||%s\n"
                  % (1000 + k, user, acct, p, q, tm(submit), tm(elig),
                     tm(end), tres))
                continue
            start = elig + int(rng.expovariate(1 / 1800.0))
            if rng.random() < 0.02:
                end = start + rng.randint(2 * 86400, 7 * 86400)
            else:
                end = start + int(math.exp(rng.uniform(lmin, lmax)))
            w("%d|%s|%s|%s|%s|%s|%s|%s|%s|COMPLETED|%s|%s\n"
              % (1000 + k, user, acct, p, q, tm(submit), tm(elig),
                 tm(start), tm(end), tres, tres))


if __name__ == "__main__":
    main()
