#!/usr/bin/env bash
# Writes a slurm.conf for one controller and N nodes, and (with --munge-key) a fresh MUNGE key.
#   slurm-conf.sh --out DIR --controller NAME=ADDRESS --node NAME=ADDRESS [--node ...]
#                 --munge-socket PATH --state-dir DIR [--log-dir DIR] [--cpus N] [--memory MB]
#                 [--min-job-age SECONDS] [--slurmd-timeout SECONDS] [--partition NAME]
#                 [--cluster NAME] [--munge-key FILE]
# ADDRESS is an IP address or a resolvable host name. Every host of the cluster reads the same
# slurm.conf. --state-dir holds the controller's state, each node's spool (%n = node name) and
# the job completion log; --log-dir (default: none, daemons log to stderr) the daemons' logs.
# --slurmd-timeout (default 60) is how long a node may not answer before the controller marks it
# DOWN and fails its jobs (NODE_FAIL); tests of a lost node shorten it.
# The settings are those that run on a machine without cgroups or a Slurm database (root
# daemons, process tracking through /proc): see docker/README.md for what they mean for
# finished jobs.
set -euo pipefail
die() { echo "slurm-conf.sh: $*" >&2; exit 2; }
need_value() { [ "$2" -ge 2 ] || die "$1 needs a value"; }
out="" controller="" socket="" state="" logs="" cpus=2 memory=1024 min_age=300 slurmd_timeout=60
partition=batch cluster=gantry key="" nodes=()
while [ $# -gt 0 ]; do
  need_value "$1" $#
  case "$1" in
    --out) out="$2" ;;
    --controller) controller="$2" ;;
    --node) nodes+=("$2") ;;
    --munge-socket) socket="$2" ;;
    --state-dir) state="$2" ;;
    --log-dir) logs="$2" ;;
    --cpus) cpus="$2" ;;
    --memory) memory="$2" ;;
    --min-job-age) min_age="$2" ;;
    --slurmd-timeout) slurmd_timeout="$2" ;;
    --partition) partition="$2" ;;
    --cluster) cluster="$2" ;;
    --munge-key) key="$2" ;;
    *) die "unknown option $1" ;;
  esac
  shift 2
done
[ -n "$out" ] && [ -n "$controller" ] && [ -n "$socket" ] && [ -n "$state" ] && [ ${#nodes[@]} -gt 0 ] \
  || die "--out, --controller, --node, --munge-socket and --state-dir are required"
# slurm.conf has no quoting: every value must be a plain word.
plain() { case "$2" in *[!A-Za-z0-9_./:-]* | "" | -*) die "$1: not a plain name, address or path: '$2'" ;; esac; }
number() { case "$2" in *[!0-9]* | "") die "$1: not a number: '$2'" ;; esac; }
pair() { # option NAME=ADDRESS
  case "$2" in *=*) ;; *) die "$1: expected NAME=ADDRESS, got '$2'" ;; esac
  plain "$1" "${2%%=*}"; plain "$1" "${2#*=}"
}
pair --controller "$controller"
for n in "${nodes[@]}"; do pair --node "$n"; done
plain --munge-socket "$socket"; plain --state-dir "$state"; plain --partition "$partition"
plain --cluster "$cluster"; [ -z "$logs" ] || plain --log-dir "$logs"
number --cpus "$cpus"; number --memory "$memory"; number --min-job-age "$min_age"
number --slurmd-timeout "$slurmd_timeout"
mkdir -p "$out"
{
  echo "# Written by docker/entrypoints/slurm-conf.sh"
  echo "ClusterName=$cluster"
  echo "SlurmctldHost=${controller%%=*}(${controller#*=})"
  echo "SlurmUser=root"
  echo "SlurmctldPort=6817"
  echo "SlurmdPort=6818"
  echo "AuthType=auth/munge"
  echo "CredType=cred/munge"
  echo "AuthInfo=socket=$socket"
  echo "StateSaveLocation=$state/slurmctld"
  echo "SlurmdSpoolDir=$state/slurmd-%n"
  echo "SlurmctldPidFile=$state/slurmctld.pid"
  echo "SlurmdPidFile=$state/slurmd-%n.pid"
  if [ -n "$logs" ]; then
    echo "SlurmctldLogFile=$logs/slurmctld.log"
    echo "SlurmdLogFile=$logs/slurmd-%n.log"
  fi
  # No cgroups here: processes are tracked through /proc, tasks are not confined.
  echo "ProctrackType=proctrack/linuxproc"
  echo "TaskPlugin=task/none"
  echo "JobAcctGatherType=jobacct_gather/none"
  echo "SelectType=select/cons_tres"
  echo "SelectTypeParameters=CR_CPU"
  # Trust the CPU count given here, not the machine's: test nodes share one machine's cores.
  echo "SlurmdParameters=config_overrides"
  echo "SchedulerType=sched/backfill"
  echo "MpiDefault=none"
  # No slurmdbd: sacct has no database; finished jobs are known to scontrol for MinJobAge
  # seconds and are appended to the job completion log for good.
  echo "AccountingStorageType=accounting_storage/none"
  echo "JobCompType=jobcomp/filetxt"
  echo "JobCompLoc=$state/jobcomp.log"
  echo "MinJobAge=$min_age"
  echo "ReturnToService=2"
  echo "InactiveLimit=0"
  # Seconds between SIGTERM and SIGKILL on scancel or when the time limit is reached.
  echo "KillWait=5"
  echo "SlurmctldTimeout=30"
  # A node silent this long is marked DOWN and its jobs end NODE_FAIL (pinged every third of it).
  echo "SlurmdTimeout=$slurmd_timeout"
  for n in "${nodes[@]}"; do
    echo "NodeName=${n%%=*} NodeAddr=${n#*=} CPUs=$cpus RealMemory=$memory State=UNKNOWN"
  done
  echo "PartitionName=$partition Nodes=ALL Default=YES MaxTime=INFINITE State=UP"
} >"$out/slurm.conf.tmp"
mv "$out/slurm.conf.tmp" "$out/slurm.conf"
if [ -n "$key" ]; then
  # 1024 random bytes, readable by root only; munged.sh copies it for user munge.
  (umask 077 && head -c 1024 /dev/urandom >"$key.tmp") && mv "$key.tmp" "$key"
fi
