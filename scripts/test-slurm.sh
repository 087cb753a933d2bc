#!/usr/bin/env bash
# make test-slurm: README's Slurm example, run by a real Slurm.
#
# Installs Debian's Slurm and munge when they are missing (apt-get, as
# root), starts a one-node cluster on this machine (munged, slurmctld and
# slurmd on 127.0.0.1, every file of theirs in a temporary folder), submits
# the job array and the merge job of README.md's "Past one machine" as
# README gives them (the blocks after its "test-slurm:" markers), at quick
# scale with no budget, and checks them against one unsharded run of the
# same plan: the shards' cells are disjoint and together exactly the
# unsharded run's, each with its status (ok, or unavailable where this
# machine has no GPU, never failed or skipped), and `semibench claims` of
# the shards says what it says of the unsharded run. The daemons and jobs
# are stopped on every exit, failure included.
#
# Usage: scripts/test-slurm.sh (after make build; make test-slurm does both).
# Environment: SLURM_TEST_TIMEOUT, the seconds the jobs may take (default
# 1500); SLURM_TEST_KEEP=1 keeps the temporary folder; SLURM_TEST_POLICY_RC,
# the policy-rc.d written while packages install (default
# /usr/sbin/policy-rc.d; the battery's test of install points it
# elsewhere).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
readme=$repo/README.md
timeout=${SLURM_TEST_TIMEOUT:-1500}

say() { echo "test-slurm: $*"; }
die() {
	echo "test-slurm: FAIL: $*" >&2
	exit 1
}

[[ -x $repo/bin/semibench ]] || die "bin/semibench is missing: run make build first (make test-slurm does)"
((EUID == 0)) || die "run it as root: slurmd starts the jobs, and a missing Slurm is installed with apt-get (CI runs as root)"
[[ $timeout =~ ^[1-9][0-9]*$ ]] || {
	echo "test-slurm: SLURM_TEST_TIMEOUT=$timeout: want a whole number of seconds" >&2
	exit 2
}

# The blocks of README.md that follow a line "<!-- test-slurm: NAME -->":
# shards.sbatch, merge.sbatch and submit.
block() {
	local out
	out=$(awk -v name="$1" '
		$0 == "<!-- test-slurm: " name " -->" { found = 1; next }
		found && !open && /^```/ { open = 1; next }
		open && /^```/ { exit }
		open { print }' "$readme")
	[[ -n $out ]] || die "$readme: no code block after <!-- test-slurm: $1 -->"
	printf '%s\n' "$out"
}

# Debian's Slurm and munge (and jq, which reads the result files here),
# when any of their commands is missing. The packages' own services are
# kept from starting (policy-rc.d): the test starts its own daemons and
# leaves none running.
install() {
	local missing=() c
	for c in munged slurmctld slurmd sbatch squeue scontrol scancel sinfo jq; do
		command -v "$c" >/dev/null || missing+=("$c")
	done
	((${#missing[@]} == 0)) && return
	local pkgs=(slurm-wlm munge jq)
	say "installing ${pkgs[*]} (missing: ${missing[*]})"
	command -v apt-get >/dev/null || die "missing ${missing[*]}, and this machine has no apt-get: install Slurm, munge and jq"
	local policy=${SLURM_TEST_POLICY_RC:-/usr/sbin/policy-rc.d} ours=
	if [[ ! -e $policy ]]; then
		# Removed on every way out, an interrupt during apt-get included,
		# set before the file exists: left behind, it would keep every
		# later package's services on this machine from starting.
		trap "rm -f '$policy'" EXIT
		trap "rm -f '$policy'; exit 130" INT
		trap "rm -f '$policy'; exit 143" TERM
		ours=1
		printf '#!/bin/sh\nexit 101\n' >"$policy"
		chmod 755 "$policy"
	fi
	local rc=0
	{ apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${pkgs[@]}"; } || rc=$?
	if [[ -n $ours ]]; then
		rm -f "$policy"
		trap - EXIT INT TERM
	fi
	((rc == 0)) || die "apt-get install ${pkgs[*]} failed (exit $rc)"
}

install

tmp=$(mktemp -d "${TMPDIR:-/tmp}/semibench-slurm.XXXXXX")
work=$tmp/work
mkdir -p "$work" "$tmp/state" "$tmp/spool" "$tmp/log"
pids=()     # daemons and the unsharded run, in start order
started= # set once slurmctld answers: jobs may exist

stop() {
	local rc=$? i pid n
	trap - EXIT INT TERM
	set +e
	if [[ -n $started ]]; then
		scancel --quiet "--user=$(id -un)" 2>/dev/null
		for ((n = 0; n < 30; n++)); do
			[[ -z $(squeue -h -o %i 2>/dev/null) ]] && break
			sleep 1
		done
	fi
	for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
		pid=${pids[i]}
		kill "$pid" 2>/dev/null || continue
		for ((n = 0; n < 50; n++)); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.2
		done
		kill -KILL "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
	done
	if ((rc != 0)); then
		for f in "$tmp"/log/* "$work"/*.out; do
			[[ -f $f ]] || continue
			echo "--- $f (last 40 lines)" >&2
			tail -n 40 "$f" >&2
		done
	fi
	if [[ ${SLURM_TEST_KEEP:-} == 1 ]]; then
		say "kept $tmp"
	else
		rm -rf "$tmp"
	fi
	exit "$rc"
}
trap stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# munge: a key of our own, its socket in the temporary folder.
dd if=/dev/urandom of="$tmp/munge.key" bs=1024 count=1 status=none
chmod 400 "$tmp/munge.key"
munged --foreground --force --key-file="$tmp/munge.key" --socket="$tmp/munge.socket" \
	--pid-file="$tmp/munged.pid" --log-file="$tmp/log/munged.log" --seed-file="$tmp/munge.seed" \
	>"$tmp/log/munged.stderr" 2>&1 &
pids+=($!)

# Slurm: one node, this machine's cores, and a stand-in GPU (gres/gpu needs
# a device file: /dev/null) so that README's --gres=gpu:1 is granted; the
# node has no GPU, so the CUDA cells record unavailable, as they do in the
# unsharded run.
host=$(hostname -s)
cpus=$(nproc)
export SLURM_CONF=$tmp/slurm.conf
cat >"$SLURM_CONF" <<EOF
ClusterName=semibench-test
SlurmctldHost=$host(127.0.0.1)
SlurmUser=$(id -un)
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$tmp/munge.socket
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
MinJobAge=3600
GresTypes=gpu
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus Gres=gpu:1 State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
printf 'NodeName=%s Name=gpu File=/dev/null\n' "$host" >"$tmp/gres.conf"

slurmctld -D -f "$SLURM_CONF" >"$tmp/log/slurmctld.stderr" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" >"$tmp/log/slurmd.stderr" 2>&1 &
pids+=($!)
for ((n = 0; ; n++)); do
	state=$(sinfo -h -n "$host" -o %T 2>/dev/null || true)
	[[ $state == idle ]] && break
	((n < 60)) || die "the node is not idle after 60 s (sinfo: ${state:-no answer})"
	sleep 1
done
started=1
say "one-node Slurm up: node $host, $cpus CPUs ($(sinfo -V))"

# The unsharded run beside the jobs, with the flags the test gives the
# shards (SCALE and BUDGET below).
export SCALE=quick BUDGET=0
PATH=$repo/bin:$PATH
semibench reproduce --scale "$SCALE" --budget "$BUDGET" --out "$tmp/unsharded.jsonl" \
	>"$tmp/log/unsharded.log" 2>&1 &
unsharded=$!
pids+=("$unsharded")

# README's files and its submission, as written.
block shards.sbatch >"$work/shards.sbatch"
block merge.sbatch >"$work/merge.sbatch"
block submit >"$work/submit.sh"
(cd "$work" && bash -euo pipefail submit.sh) || die "README's submission failed"

# Wait for every job, failing at once when one ends other than COMPLETED.
deadline=$((SECONDS + timeout))
while :; do
	jobs=$(scontrol show job -o 2>/dev/null | grep -o 'JobId=[0-9]* .*JobState=[A-Z_]*' | sed -E 's/^JobId=([0-9]+) .*JobState=([A-Z_]+)$/\1 \2/' || true)
	[[ -n $jobs ]] || die "scontrol shows no job after README's submission"
	bad=$(awk '$2 !~ /^(PENDING|CONFIGURING|RUNNING|COMPLETING|COMPLETED)$/' <<<"$jobs")
	[[ -z $bad ]] || die "a job ended badly: $bad"
	awk '$2 != "COMPLETED" { n++ } END { exit n > 0 }' <<<"$jobs" && break
	((SECONDS < deadline)) || die "the jobs did not finish in ${timeout} s: $(squeue -o '%i %j %T %r' | tr '\n' ';')"
	sleep 5
done
say "$(wc -l <<<"$jobs") jobs completed: the array's 3 tasks and the merge"
wait "$unsharded" || die "the unsharded run failed (exit $?)"

# Cells: "experiment impl params<TAB>status", one line each.
cells() { tail -q -n +2 "$@" | jq -r 'select(.experiment) | "\(.experiment) \(.impl) \(.params | tostring)\t\(.status)"'; }
shards=("$work"/runs/shard-*.jsonl)
((${#shards[@]} == 3)) || die "want 3 shard files in runs/, found ${#shards[@]}"
for f in "${shards[@]}"; do
	head -n 1 "$f" | jq -e --arg s "$SCALE" '.scale == $s and (.shard | test("^[123]/3$"))' >/dev/null ||
		die "$f: header not of a quick-scale shard of 3"
done
dup=$(cells "${shards[@]}" | cut -f 1 | sort | uniq -d)
[[ -z $dup ]] || die "cells in two shards: $dup"
diff <(cells "$tmp/unsharded.jsonl" | sort) <(cells "${shards[@]}" | sort) >"$tmp/cells.diff" ||
	die "the shards' cells differ from the unsharded run's (< unsharded, > shards): $(cat "$tmp/cells.diff")"
odd=$(cells "$tmp/unsharded.jsonl" | cut -f 2 | grep -v -x -e ok -e unavailable | sort | uniq -c || true)
[[ -z $odd ]] || die "cells neither ok nor unavailable: $odd"
n=$(cells "$tmp/unsharded.jsonl" | wc -l)
say "cells: the 3 shards hold the unsharded run's $n, each once, the same status"

# Claims: the merge job's verdicts against the unsharded run's. Every
# claim's verdict, figure and re-run command (which names the cells it
# read) must agree, save for indicative against inconclusive: at quick
# scale a rule's verdict is indicative unless the two sides' samples
# overlap (Mann-Whitney U), which is the measurement's noise, not the
# shards'. Then the text, save for the lines that name files or measured
# times (a duration, a ratio, a share) or say what lies within the
# samples' noise, and for the summary's counts where such a claim moved
# between those two columns.
semibench claims "$tmp/unsharded.jsonl" >"$tmp/claims.txt"
semibench claims --format json "$tmp/unsharded.jsonl" >"$tmp/claims.json"
semibench claims --format json "${shards[@]}" >"$tmp/merged.json"
[[ -s $work/runs/claims.txt ]] || die "the merge job wrote no runs/claims.txt"
verdicts() { jq -r '.[] | [.id, .verdict, .paper_figure, .rerun] | @tsv' "$1" | sort; }
same() { sed 's/\tinconclusive\t/\tindicative\t/' "$1"; }
verdicts "$tmp/claims.json" >"$tmp/a.tsv"
verdicts "$tmp/merged.json" >"$tmp/b.tsv"
diff <(same "$tmp/a.tsv") <(same "$tmp/b.tsv") >"$tmp/verdicts.diff" ||
	die "claims' verdicts differ (< unsharded, > merged): $(cat "$tmp/verdicts.diff")"
noise=$(join -t $'\t' <(cut -f 1,2 "$tmp/a.tsv") <(cut -f 1,2 "$tmp/b.tsv") | awk -F '\t' '$2 != $3 { print $1 " (" $2 ", " $3 ")" }')
[[ -z $noise ]] || say "note: verdicts within the samples' noise, unsharded then merged: $noise"
# A claim's block of text (its lines, the wrapped ones indented) becomes
# one line, so that a claim is left out or kept whole; the tables stay as
# they are.
cards() { awk 'BEGIN { RS = ""; ORS = "\n\n" } /^[│┌├└]/ { print; next } { gsub(/\n +/, " "); print }' "$1"; }
# The rows of claims whose figure differs between the two runs (a ranking
# or a test within the samples' noise, which the figure says) are left
# out of the text; their verdicts were compared above. A column is as
# wide as its widest cell, left-out rows included, so runs of spaces and
# of rules are squeezed before the comparison.
jq -r '.[] | [.id, .ours] | @tsv' "$tmp/claims.json" | sort >"$tmp/a.ours"
jq -r '.[] | [.id, .ours] | @tsv' "$tmp/merged.json" | sort >"$tmp/b.ours"
moved=$(join -t $'\t' "$tmp/a.ours" "$tmp/b.ours" | awk -F '\t' '$2 != $3 { print $1 }')
jq -r --arg ids "$moved" '.[] | select(.id as $i | ($ids | split("\n") | index($i))) | .claim[0:60]' "$tmp/claims.json" >"$tmp/moved.txt"
fixed() {
	cards "$1" | grep -v -E -e '\.jsonl' -e '[0-9](\.[0-9]+)?( ?(ns|µs|ms|s|min|h)|x|%)([^[:alnum:]]|$)' -e 'within the noise' |
		{ if [[ -s $tmp/moved.txt ]]; then grep -v -F -f "$tmp/moved.txt"; else cat; fi; } |
		if [[ -n $noise ]]; then grep -v -E '^│[^│]+│( +[0-9]+ │)+$'; else cat; fi |
		sed -E 's/ +/ /g; s/─+/─/g'
}
diff <(fixed "$tmp/claims.txt") <(fixed "$work/runs/claims.txt") >"$tmp/claims.diff" ||
	die "claims differ (< unsharded, > merged): $(cat "$tmp/claims.diff")"
say "claims: $(wc -l <"$tmp/a.tsv") verdicts equal to the unsharded run's; of the text, $(fixed "$tmp/claims.txt" | wc -l) of $(wc -l <"$tmp/claims.txt") lines compared (the rest name files or times, or a figure that moved within the noise)"
[[ -s $work/runs/tables.txt ]] || die "the merge job wrote no runs/tables.txt"
say "ok"
