#!/usr/bin/env bash
# Starts MUNGE, the authentication service Slurm's daemons and clients share, in the foreground
# as user munge.
#   munged.sh --key FILE --socket PATH --state-dir DIR [common options, see common.sh]
# --key: the cluster's shared key (the same file on every host; see slurm-conf.sh --munge-key).
# It is copied into DIR, owned by munge with mode 0400, because munged refuses a key that others
# can read and a mounted secret is often root-owned 0444. DIR also holds munged's seed and log.
# --socket: where clients connect; slurm.conf names it with AuthInfo=socket=PATH.
set -euo pipefail
. "$(dirname "$0")/common.sh"
args=("$@")
key="" socket="" state=""
while [ $# -gt 0 ]; do
  case "$1" in
    --key) need_value "$1" $#; key="$2" ;;
    --socket) need_value "$1" $#; socket="$2" ;;
    --state-dir) need_value "$1" $#; state="$2" ;;
    *) [ $# -ge 2 ] && common_option "$1" "$2" || die "unknown option $1" ;;
  esac
  shift 2
done
[ -n "$key" ] && [ -n "$socket" ] && [ -n "$state" ] || die "--key, --socket and --state-dir are required"
[ -r "$key" ] || die "--key: cannot read $key"
entry_prepare "${args[@]}"
# munged checks that no one but munge (or root) can write its directories.
install -d -o munge -g munge -m 0700 "$state"
install -o munge -g munge -m 0400 "$key" "$state/munge.key"
install -d -o munge -g munge -m 0755 "$(dirname "$socket")"
entry_exec setpriv --reuid=munge --regid=munge --init-groups -- /usr/sbin/munged --foreground \
  --key-file="$state/munge.key" --socket="$socket" --seed-file="$state/munge.seed" \
  --pid-file="$state/munged.pid" --log-file="$state/munged.log"
