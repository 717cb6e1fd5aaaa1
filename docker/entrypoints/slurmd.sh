#!/usr/bin/env bash
# Starts a Slurm compute node daemon in the foreground.
#   slurmd.sh --conf DIR --node NAME [common options, see common.sh]
# DIR holds slurm.conf (slurm-conf.sh); NAME is a NodeName in it. munged must be running.
set -euo pipefail
. "$(dirname "$0")/common.sh"
args=("$@")
conf="" node=""
while [ $# -gt 0 ]; do
  case "$1" in
    --conf) need_value "$1" $#; conf="$2" ;;
    --node) need_value "$1" $#; node="$2" ;;
    *) [ $# -ge 2 ] && common_option "$1" "$2" || die "unknown option $1" ;;
  esac
  shift 2
done
[ -n "$conf" ] && [ -n "$node" ] || die "--conf and --node are required"
[ -r "$conf/slurm.conf" ] || die "--conf: no readable slurm.conf in $conf"
case "$node" in *[!A-Za-z0-9_-]* | -*) die "--node: not a node name: $node" ;; esac
grep -q "^NodeName=$node " "$conf/slurm.conf" || die "--node: $conf/slurm.conf has no NodeName=$node"
entry_prepare "${args[@]}"
spool=$(conf_value "$conf/slurm.conf" SlurmdSpoolDir)
[ -n "$spool" ] || die "$conf/slurm.conf sets no SlurmdSpoolDir"
mkdir -p "${spool//%n/$node}"
entry_exec /usr/sbin/slurmd -D -f "$conf/slurm.conf" -N "$node"
