#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Write a realistic cluster dump for benchmarking `mfprio priority`.

Usage: gen_jobs.py DIR NJOBS [SEED]

DIR receives slurm.conf, qos.txt, assoc.txt, usage.txt and jobs.txt
(`scontrol -o show job` lines, about 1 kB each as on a real cluster):
200 accounts under 20 parents, 5000 users, 12 partitions in 3 tiers,
8 QOS, a fifth of the jobs array tasks (100_3) or pending array records
(100_[4-9]), long job names with spaces and '=' in them, comments, and
jobs queued in two partitions.  Times are written as scontrol writes them
in UTC: read them with TZ=UTC.  Only the standard library; deterministic
for a given seed.
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchsite  # noqa: E402


def tm(t):
    """scontrol's time form, in UTC (run mfprio with TZ=UTC)."""
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t))


def main():
    out, njobs, rng = benchsite.command_line(__doc__)
    now = 1700000000
    parts, qos, nuser = benchsite.PARTS, benchsite.QOS, benchsite.NUSER

    benchsite.write_conf(out, "PriorityType=priority/multifactor\n"
                         "AccountingStorageType=accounting_storage/slurmdbd\n"
                         "PriorityDecayHalfLife=7-0\nPriorityMaxAge=14-0\n"
                         "PriorityWeightAge=10000\n"
                         "PriorityWeightFairshare=100000\n"
                         "PriorityWeightJobSize=1000\n"
                         "PriorityWeightPartition=5000\n"
                         "PriorityWeightQOS=20000\n"
                         "PriorityWeightTRES=CPU=1000,Mem=500,GRES/gpu=3000\n"
                         "AccountingStorageTRES=gres/gpu\nGresTypes=gpu\n",
                         gres="gpu:4")
    benchsite.write_qos(out)
    users = benchsite.write_assoc(out, rng, usage=True)
    words = ["analysis", "run", "mesh=fine", "step", "QOS=high", "ensemble",
             "Account=x", "sweep", "final", "v2", "Partition=p00", "test"]
    with open(os.path.join(out, "jobs.txt"), "w") as f:
        jid, array = 1000, None
        w = f.write
        for n in range(njobs):
            jid += 1
            user, uid, acct = users[rng.randrange(nuser)]
            q = qos[rng.randrange(len(qos))]
            p = rng.randrange(len(parts))
            part = parts[p]
            if rng.random() < 0.1:
                part += "," + parts[(p + 1) % len(parts)]
            name = " ".join(rng.choice(words)
                            for _ in range(rng.randint(1, 6)))
            submit = now - rng.randint(60, 30 * 86400)
            elig = submit + rng.randint(0, 600)
            held = rng.random() < 0.02
            cpus = rng.choice([1, 1, 2, 4, 8, 16, 32, 64, 128])
            nodes = max(1, cpus // 64)
            gpu = ",gres/gpu=%d" % rng.randint(1, 4) if p % 4 == 3 else ""
            mem = cpus * 4000
            arr = ""
            r = rng.random()
            if array and r < 0.15:
                array[1] += 1
                arr = "ArrayJobId=%d ArrayTaskId=%d " % (array[0], array[1])
            elif r < 0.2:
                array = [jid, 0]
                arr = "ArrayJobId=%d ArrayTaskId=1-%d%%4 " % (
                    jid, rng.randint(2, 500))
            w("JobId=%d %sJobName=%s UserId=%s(%d) GroupId=grp(%d) "
              "MCS_label=N/A Priority=%d Nice=0 Account=%s QOS=%s "
              "JobState=PENDING Reason=%s Dependency=(null) Requeue=1 "
              "Restarts=0 BatchFlag=1 Reboot=0 ExitCode=0:0 "
              "RunTime=00:00:00 TimeLimit=%d-00:00:00 TimeMin=N/A "
              "SubmitTime=%s EligibleTime=%s AccrueTime=%s "
              "StartTime=Unknown EndTime=Unknown Deadline=N/A "
              "SuspendTime=None SecsPreSuspend=0 LastSchedEval=%s "
              "Scheduler=Backfill:* Partition=%s AllocNode:Sid=login%02d:%d "
              "ReqNodeList=(null) ExcNodeList=(null) NodeList=(null) "
              "NumNodes=%d-%d NumCPUs=%d NumTasks=%d CPUs/Task=1 "
              "ReqB:S:C:T=0:0:*:* TRES=cpu=%d,mem=%dM,node=%d,billing=%d%s "
              "Socks/Node=* NtasksPerN:B:S:C=0:0:*:* CoreSpec=* "
              "MinCPUsNode=1 MinMemoryCPU=4000M MinTmpDiskNode=0 "
              "Features=(null) DelayBoot=00:00:00 OverSubscribe=OK "
              "Contiguous=0 Licenses=(null) Network=(null) "
              "Command=/home/%s/project %d/run job.sh --opt QOS=low "
              "WorkDir=/home/%s/project %d Comment=%s "
              "StdErr=/home/%s/project %d/slurm-%d.err StdIn=/dev/null "
              "StdOut=/home/%s/project %d/slurm-%d.out Power= "
              "MailUser=%s MailType=NONE\n"
              % (jid, arr, name, user, uid, uid, 0 if held else 1 + n % 99991,
                 acct, q, "JobHeldUser" if held else
                 rng.choice(["Priority", "Resources", "QOSMaxJobsPerUserLimit"]),
                 rng.randint(1, 7), tm(submit), tm(elig),
                 "Unknown" if held else tm(elig), tm(elig), part,
                 rng.randrange(4), rng.randint(1000, 99999), nodes, nodes,
                 cpus, cpus, cpus, mem, nodes, cpus, gpu, user, n % 50,
                 user, n % 50, "campaign QOS=urgent Nice=-100 " + name,
                 user, n % 50, jid, user, n % 50, jid, user))


if __name__ == "__main__":
    main()
