#!/usr/bin/env bash
# Starts the Slurm controller in the foreground.
#   slurmctld.sh --conf DIR [--clear-state] [common options, see common.sh]
# DIR holds slurm.conf (written by slurm-conf.sh); munged must be running (munged.sh). The host
# name must be the one slurm.conf names in SlurmctldHost (containers: the service's hostname;
# tests: --hostname). --clear-state starts without the jobs saved in StateSaveLocation.
set -euo pipefail
. "$(dirname "$0")/common.sh"
args=("$@")
conf="" clear=()
while [ $# -gt 0 ]; do
  case "$1" in
    --conf) need_value "$1" $#; conf="$2"; shift 2 ;;
    --clear-state) clear=(-c); shift ;;
    *) [ $# -ge 2 ] && common_option "$1" "$2" || die "unknown option $1"; shift 2 ;;
  esac
done
[ -n "$conf" ] || die "--conf is required"
[ -r "$conf/slurm.conf" ] || die "--conf: no readable slurm.conf in $conf"
entry_prepare "${args[@]}"
state=$(conf_value "$conf/slurm.conf" StateSaveLocation)
[ -n "$state" ] || die "$conf/slurm.conf sets no StateSaveLocation"
mkdir -p "$state"
# -D: foreground; -i: start even when a state file from an older run is damaged.
entry_exec /usr/sbin/slurmctld -D -i "${clear[@]}" -f "$conf/slurm.conf"
