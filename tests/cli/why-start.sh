#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `mfprio why JOBID`: when the job may start (Slurm's own estimate, the
# job's StartTime), the counts in the singular, the fair-share outlook at
# usage 0, from the dumps of tests/data/wait with StartTime, LastSchedEval,
# SchedulerType and SchedulerParameters put in.  Every expected text is
# worked out by hand below from those files.  The dump's time is
# 1700000000 = 2023-11-14T22:13:20 (UTC); LastSchedEval 2023-11-14T22:13:00.
. "${TOP_SRCDIR:?set TOP_SRCDIR}/tests/cli/lib.sh"
W="$TOP_SRCDIR/tests/data/wait"

# case NAME REASON START [SCHED [PARAMS [PRIO [ELIG]]]]: $T/NAME with job
# 123 pending for REASON, its StartTime START, and SchedulerType SCHED
# ("-": no such line) and SchedulerParameters PARAMS in the config.
case_dir() {
	d=$T/$1
	wait_case "$d" "$2" PENDING "${6:-1800}" "(null)" "${7:-2023-11-12T22:13:20}"
	sed -e "s/ StartTime=Unknown / StartTime=$3 /" \
		-e "s/ Scheduler=Main / Scheduler=Backfill /" "$d/jobs.1" >"$d/jobs"
	rm "$d/jobs.1"
	if [ "${4:-sched/backfill}" != - ]; then
		echo "SchedulerType           = ${4:-sched/backfill}" >>"$d/config"
	fi
	echo "SchedulerParameters     = ${5:-(null)}" >>"$d/config"
}
why() {
	local n=$1
	shift
	why_flat "$T/$n" "$@"
}
in=$T/flat

# --- an estimate: StartTime 2023-11-15T01:30:00 is 3 h 16 min 40 s =
# 11800 s after the dump's time, printed to the minute rounded up: 3 h 17
# min; in JSON 1700000000 + 11800 = 1700011800.
case_dir est Resources 2023-11-15T01:30:00 sched/backfill bf_interval=60,bf_window=2880
why est
has "estimate: the time, from backfill, its last look" 0 \
	"When it may start: Slurm's estimate: in 3 h 17 min (2023-11-15T01:30:00), from its backfill plan (the scheduler last looked at the job at 2023-11-14T22:13:00)." \
	"It assumes every running job runs to its time limit and no job of higher priority arrives." \
	"Jobs that end early can bring it forward;" \
	"backfill makes it again at every pass."
lacks "estimate: no 'no start time'" "no start time"
why est --json
has "estimate --json" 0 '"kind": "estimate"' '"time": 1700011800' \
	'"seconds": 11800' '"none_because": null' '"scheduler": "sched/backfill"' \
	'"last_eval": 1699999980' '"bf_interval": 60' '"bf_window_minutes": 2880'
if python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$out"; then
	ok "estimate --json parses"
else
	bad "estimate --json parses"
fi

# --- StartTime the dump's time itself: Slurm shows a planned start that
# has passed as the time of asking
case_dir due Resources 2023-11-14T22:13:20
why due
has "due: the plan's start has come" 0 \
	"Slurm's estimate is now (2023-11-14T22:13:20): its plan had it start by this time"

# --- a begin time: Slurm shows it as the StartTime of a job it has not
# planned; not an estimate
case_dir begin BeginTime 2023-11-15T06:00:00 sched/backfill '(null)' 1800 2023-11-15T06:00:00
why begin
has "begin: not an estimate" 0 \
	"Not before its begin time, 2023-11-15T06:00:00. That is what StartTime shows, not an estimate"
lacks "begin: no estimate said" "Slurm's estimate"

# --- none, under backfill: the defaults (bf_interval 30 s, bf_window
# 1440 min = 1 d 0 h 0 min), then bf_window=2880 = 2 d 0 h 0 min
case_dir nobf Priority Unknown
why nobf
has "none under backfill: not placed yet, the defaults" 0 \
	"Slurm gives it no start time yet (StartTime=Unknown): backfill has not placed it. A pass runs every 30 s (bf_interval); the scheduler last looked at it at 2023-11-14T22:13:00; it places no start beyond 1 d 0 h 0 min ahead (bf_window)"
lacks "none: no estimate said" "Slurm's estimate" "It assumes"
why nobf --json
has "none --json" 0 '"kind": "none"' '"time": null' \
	'"none_because": "not_reached"' '"bf_interval": 30' '"bf_window_minutes": 1440'
case_dir nobf2 Priority Unknown sched/backfill 'bf_continue,bf_window=2880,bf_interval=90'
why nobf2
has "none under backfill: its parameters" 0 \
	"A pass runs every 90 s (bf_interval)" "beyond 2 d 0 h 0 min ahead (bf_window)"
case_dir builtin Priority Unknown sched/builtin
why builtin
has "none under sched/builtin" 0 \
	"the cluster's scheduler is sched/builtin, not sched/backfill"
case_dir nosched Priority Unknown -
why nosched
has "none, scheduler not shown" 0 \
	"its scheduler (SchedulerType) is not shown: why there is none is not known."
case_dir held JobHeldUser Unknown sched/backfill '(null)' 0
why held
has "none: held" 0 \
	"Slurm gives it no start time (StartTime=Unknown): its scheduler plans no job that a hold, a dependency or a limit keeps back"
lacks "held: not blamed on backfill" "backfill has not placed it"

# --- counts of 1.  Without 101, 102 and 110 in batch, sprio's rows there
# are 118 2000, 123 1800, 125 1800, 130 1100: 1 of 4 ahead, 118.
# Without 140 in long, 123 is its only row.
case_dir one Priority Unknown
sed -i -e '/^10[12]|batch|/d' -e '/^110|batch|/d' -e '/^140|long|/d' "$T/one/sprio"
why one
has "one ahead: singular" 0 \
	"Partition batch: 1 of 4 pending jobs is ahead of it, job 118 (priority 2000); its own priority is 1800." \
	"Partition long: its only pending job, priority 2300."
lacks "one ahead: no plural for one" "1 of 4 pending jobs are" "first of 1 "

# --- usage 0: phys/dave's RawUsage 300 made 0.  Decay of 0 is 0 at every
# horizon: one line for the three.
case_dir nouse Priority Unknown
sed -i 's/^  phys|dave|0.500000|300|/  phys|dave|0.500000|0|/' "$T/nouse/sshare"
why nouse
has "usage 0: the outlook in one line" 0 \
	"Usage 0 (effective usage 0.7500)" \
	"With no usage, decay has nothing to take off: running nothing more, it stays as it is in 1 day, 1 week and 1 half-life"
lacks "usage 0: not three lines of usage 0" "In 1 day, running nothing more" \
	"In 1 week" "In 1 half-life"
# --- a limit of 1: phys's GrpTRESMins cpu=5 (tests/data/wait/sshare)
# made cpu=1
case_dir lim1 AssocGrpCPUMinutesLimit Unknown
sed -i 's/^ phys||0.500000|400|0.400000||1.250000|cpu=5|/ phys||0.500000|400|0.400000||1.250000|cpu=1|/' "$T/lim1/sshare"
why lim1
has "a limit of 1: singular" 0 \
	"The account phys has a limit of 1 cpu-minute (GrpTRESMins);"
# every line within 80 columns
why est
if awk 'length > 80 { bad = 1 } END { exit bad }' "$out"; then
	ok "text within 80 columns"
else
	bad "text within 80 columns"
fi
finish
