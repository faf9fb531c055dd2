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
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchsite  # noqa: E402

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
    out, n, rng = benchsite.command_line(__doc__)
    parts, qos, nuser = benchsite.PARTS, benchsite.QOS, benchsite.NUSER

    benchsite.write_conf(out, "PriorityType=priority/multifactor\n"
                         "AccountingStorageType=accounting_storage/slurmdbd\n"
                         "AccountingStorageEnforce=associations,limits,qos\n"
                         "PriorityDecayHalfLife=7-0\nPriorityMaxAge=14-0\n"
                         "PriorityCalcPeriod=5\n"
                         "PriorityWeightAge=10000\n"
                         "PriorityWeightFairshare=100000\n"
                         "PriorityWeightJobSize=1000\n"
                         "PriorityWeightPartition=5000\n"
                         "PriorityWeightQOS=20000\n")
    benchsite.write_qos(out)
    users = benchsite.write_assoc(out, rng)

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
            user, _, acct = users[picks[k % len(picks)]]
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
