#!/usr/bin/env bash
# Starts OpenSSH's sshd in the foreground for the account that launches jobs (mpirun's ssh to
# the nodes, and the server's ssh/sftp to a cluster's login node).
#   sshd.sh --conf DIR --host-key FILE [--host-key FILE...] --authorized-keys FILE --user NAME
#           [--listen ADDRESS] [--port N] [--setenv NAME=VALUE...]
#           [--trusted-user-ca FILE --allow-user NAME... [--revoked-keys FILE]]
#           [common options, see common.sh]
# DIR receives the generated sshd_config (and sshd.pid); --authorized-keys is the one file of
# public keys allowed in, for --user only. --trusted-user-ca is sshd's TrustedUserCAKeys: user
# certificates it signed log in as their principal, if --allow-user names the account;
# --revoked-keys is sshd's RevokedKeys (a key revocation list, read at each login). Key login only: no passwords, no forwarding; sftp
# is served in-process for staging. --setenv sets a variable in every session (e.g. SLURM_CONF
# where slurm.conf is not in /etc/slurm), since clients may not send any.
set -euo pipefail
. "$(dirname "$0")/common.sh"
args=("$@")
conf="" authorized="" user="" listen="0.0.0.0" port="22" host_keys=() setenv=() ca="" allow=()
revoked=""
while [ $# -gt 0 ]; do
  case "$1" in
    --conf) need_value "$1" $#; conf="$2" ;;
    --host-key) need_value "$1" $#; host_keys+=("$2") ;;
    --authorized-keys) need_value "$1" $#; authorized="$2" ;;
    --user) need_value "$1" $#; user="$2" ;;
    --listen) need_value "$1" $#; listen="$2" ;;
    --port) need_value "$1" $#; port="$2" ;;
    --setenv) need_value "$1" $#; setenv+=("$2") ;;
    --trusted-user-ca) need_value "$1" $#; ca="$2" ;;
    --allow-user) need_value "$1" $#; allow+=("$2") ;;
    --revoked-keys) need_value "$1" $#; revoked="$2" ;;
    *) [ $# -ge 2 ] && common_option "$1" "$2" || die "unknown option $1" ;;
  esac
  shift 2
done
[ -n "$conf" ] && [ -n "$authorized" ] && [ -n "$user" ] && [ ${#host_keys[@]} -gt 0 ] \
  || die "--conf, --host-key, --authorized-keys and --user are required"
# sshd_config has no quoting for these values: refuse anything but plain words.
for value in "$conf" "$authorized" "$user" "$listen" "$port" "${host_keys[@]}" ${setenv[@]+"${setenv[@]}"} \
    ${ca:+"$ca"} ${revoked:+"$revoked"} ${allow[@]+"${allow[@]}"}; do
  case "$value" in *[!A-Za-z0-9_./:@+=-]* | "") die "not a plain path, name or address: '$value'" ;; esac
done
case "$port" in *[!0-9]*) die "--port: not a number: $port" ;; esac
for pair in ${setenv[@]+"${setenv[@]}"}; do
  case "$pair" in [A-Za-z_]*=*) ;; *) die "--setenv: expected NAME=VALUE, got '$pair'" ;; esac
done
id -u "$user" >/dev/null 2>&1 || die "--user: no such account: $user"
for account in ${allow[@]+"${allow[@]}"}; do
  id -u "$account" >/dev/null 2>&1 || die "--allow-user: no such account: $account"
done
[ -z "$ca" ] || [ -r "$ca" ] || die "--trusted-user-ca: cannot read $ca"
[ -z "$revoked" ] || [ -r "$revoked" ] || die "--revoked-keys: cannot read $revoked"
[ -r "$authorized" ] || die "--authorized-keys: cannot read $authorized"
entry_prepare "${args[@]}"
mkdir -p "$conf"
# sshd's privilege-separated child chroots here.
install -d -m 0755 /run/sshd
root_login=no
[ "$user" = root ] && root_login=prohibit-password
{
  echo "ListenAddress $listen"
  echo "Port $port"
  for key in "${host_keys[@]}"; do echo "HostKey $key"; done
  echo "AuthorizedKeysFile $authorized"
  echo "AllowUsers $user ${allow[*]+${allow[*]}}"
  [ -z "$ca" ] || echo "TrustedUserCAKeys $ca"
  [ -z "$revoked" ] || echo "RevokedKeys $revoked"
  echo "PermitRootLogin $root_login"
  echo "PubkeyAuthentication yes"
  echo "PasswordAuthentication no"
  echo "KbdInteractiveAuthentication no"
  echo "UsePAM no"
  echo "PermitUserEnvironment no"
  echo "AllowTcpForwarding no"
  echo "AllowAgentForwarding no"
  echo "X11Forwarding no"
  echo "PrintMotd no"
  echo "PidFile $conf/sshd.pid"
  echo "Subsystem sftp internal-sftp"
  for pair in ${setenv[@]+"${setenv[@]}"}; do echo "SetEnv $pair"; done
} >"$conf/sshd_config"
/usr/sbin/sshd -t -f "$conf/sshd_config" || die "sshd rejects the generated $conf/sshd_config"
# -D: foreground; -e: log to stderr.
if [ ${#allow[@]} -eq 0 ]; then
  entry_exec /usr/sbin/sshd -D -e -f "$conf/sshd_config"
fi
# Accounts on a cluster have a login shell there and are not locked; accounts made by
# create-test-accounts have no shell and a locked password ("!", which sshd without PAM takes for
# a locked account, keys or not), since local jobs never log in. This host sees the --allow-user
# accounts with /bin/sh and no password ("*": no password login either), in copies bound over
# /etc/passwd and /etc/shadow in a mount namespace of its own (unshare execs in place, so the pid
# stays sshd's).
awk -F: -v OFS=: -v users=" ${allow[*]} " 'index(users, " " $1 " ") { $7 = "/bin/sh" } { print }' \
  /etc/passwd >"$conf/passwd"
awk -F: -v OFS=: -v users=" ${allow[*]} " 'index(users, " " $1 " ") { $2 = "*" } { print }' \
  /etc/shadow >"$conf/shadow"
chmod 0644 "$conf/passwd"
chmod 0600 "$conf/shadow"
entry_exec unshare --mount -- /bin/bash -c \
  'mount --bind "$1" /etc/passwd && mount --bind "$2" /etc/shadow && shift 2 && exec "$@"' \
  sshd-with-shells "$conf/passwd" "$conf/shadow" /usr/sbin/sshd -D -e -f "$conf/sshd_config"
