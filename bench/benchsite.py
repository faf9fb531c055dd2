# SPDX-License-Identifier: GPL-2.0-or-later
"""benchsite: the cluster "bench" that bench/gen_jobs.py and
bench/gen_history.py write (standard library only).

200 accounts under 20 departments, 5000 users (user0000, ... a user in
each account in turn), 1000 CPU nodes and 100 GPU nodes, 12 partitions
in 3 tiers (every fourth on the GPU nodes) and 8 QOS.  write_conf()
writes DIR/slurm.conf with the caller's settings, write_qos() DIR/qos.txt
and write_assoc() DIR/assoc.txt (and DIR/usage.txt), the shares (and
usage) drawn from the caller's random generator; command_line() reads
the scripts' DIR N [SEED].  Not to be confused with
bench/gen_site.py, a site of any size for `mfprio tree`.
"""
import os
import random
import sys

NPARENT, NACCT, NUSER = 20, 200, 5000
PARTS = ["p%02d" % i for i in range(12)]
QOS = ["normal", "high", "low", "debug", "long", "gpu", "scav", "urgent"]


def command_line(usage):
    """DIR N [SEED] from the command line (else exit with USAGE): DIR,
    made if missing, N and a random generator seeded with SEED (12)."""
    if len(sys.argv) < 3:
        sys.exit(usage)
    out, n = sys.argv[1], int(sys.argv[2])
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 12)
    os.makedirs(out, exist_ok=True)
    return out, n, rng


def write_conf(out, settings, gres=""):
    """OUT/slurm.conf: ClusterName=bench, SETTINGS (the priority and
    accounting lines, as text), the nodes (GRES on the GPU nodes, as in
    "gpu:4") and the partitions."""
    with open(os.path.join(out, "slurm.conf"), "w") as f:
        f.write("ClusterName=bench\n" + settings)
        f.write("NodeName=c[0001-1000] CPUs=64 RealMemory=256000\n"
                "NodeName=g[001-100] CPUs=64 RealMemory=512000%s\n"
                % (" Gres=" + gres if gres else ""))
        for i, p in enumerate(PARTS):
            nodes = "g[001-100]" if i % 4 == 3 else "c[0001-1000]"
            f.write("PartitionName=%s Nodes=%s PriorityJobFactor=%d "
                    "PriorityTier=%d MaxTime=7-0%s\n"
                    % (p, nodes, 1 + 10 * i, 1 + i % 3,
                       " Default=YES" if i == 0 else ""))


def write_qos(out):
    """OUT/qos.txt: the QOS and their priorities, 0 to 700."""
    with open(os.path.join(out, "qos.txt"), "w") as f:
        for i, q in enumerate(QOS):
            f.write("%s|%d\n" % (q, i * 100))


def write_assoc(out, rng, usage=False):
    """OUT/assoc.txt: root, the departments, the accounts and the users,
    their shares drawn from RNG; with USAGE also OUT/usage.txt, each
    user's raw usage drawn right after its shares.  Returns the users as
    (name, uid, account)."""
    users, used = [], []
    with open(os.path.join(out, "assoc.txt"), "w") as f:
        f.write("root|||1\n")
        for p in range(NPARENT):
            f.write("dept%02d||root|%d\n" % (p, rng.randint(1, 100)))
        for a in range(NACCT):
            f.write("acct%03d||dept%02d|%d\n"
                    % (a, a % NPARENT, rng.randint(1, 50)))
        for u in range(NUSER):
            a = u % NACCT
            name = "user%04d" % u
            users.append((name, 10000 + u, "acct%03d" % a))
            f.write("acct%03d|%s||%d\n" % (a, name, rng.randint(1, 10)))
            if usage:
                used.append("acct%03d|%s|%d\n"
                            % (a, name, rng.randint(0, 10 ** 7)))
    if usage:
        with open(os.path.join(out, "usage.txt"), "w") as f:
            f.writelines(used)
    return users
