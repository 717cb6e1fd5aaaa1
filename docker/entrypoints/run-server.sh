#!/usr/bin/env bash
# Main process of the gantry-server image: slurm.conf and munged so that the server's sbatch,
# squeue, scontrol and scancel reach the controller; ssh set up for account gantry (mpirun to
# the nodes, strict host key checking against the nodes' key); then gantry-server as gantry.
#   GANTRY_SSH_KEY           gantry's private key (/run/secrets/gantry_ssh_key)
#   GANTRY_SSH_HOST_KEY_PUB  the nodes' public host key (/run/secrets/ssh_host_key_pub)
#   GANTRY_STORE_PASSWORD    PostgreSQL's password for user gantry (/run/secrets/postgres_password)
#   GANTRY_ADMIN_PASSWORD    the first administrator's password (/run/secrets/admin_password)
#   GANTRY_CONFIG            the server's configuration (/etc/gantry/gantry-server.properties)
set -euo pipefail
. "$(dirname "$0")/container.sh"
write_slurm_conf
start_munged
ssh_dir=/home/gantry/.ssh
install -d -o gantry -g gantry -m 0700 "$ssh_dir"
install -o gantry -g gantry -m 0600 "${GANTRY_SSH_KEY:-/run/secrets/gantry_ssh_key}" "$ssh_dir/id_ed25519"
read -r -a nodes <<<"${GANTRY_SLURM_NODES:-node1 node2}"
host_key=$(cut -d' ' -f1,2 "${GANTRY_SSH_HOST_KEY_PUB:-/run/secrets/ssh_host_key_pub}")
for n in "${nodes[@]}"; do echo "$n $host_key"; done >"$ssh_dir/known_hosts"
printf '%s\n' "StrictHostKeyChecking yes" "BatchMode yes" "IdentitiesOnly yes" \
  "IdentityFile $ssh_dir/id_ed25519" >"$ssh_dir/config"
for n in "${nodes[@]}"; do echo "$n slots=${GANTRY_SLURM_CPUS:-2}"; done >/etc/gantry/hostfile
chown gantry:gantry "$ssh_dir/known_hosts" "$ssh_dir/config"
install -d -o gantry -g gantry -m 0750 /var/lib/gantry /var/lib/gantry/jobs
# The server reads passwords only from files its own user alone can read; mounted secrets are
# root's, often 0444: copy them.
install -d -o gantry -g gantry -m 0700 /run/gantry-secrets
install -o gantry -g gantry -m 0400 "${GANTRY_STORE_PASSWORD:-/run/secrets/postgres_password}" /run/gantry-secrets/store.password
install -o gantry -g gantry -m 0400 "${GANTRY_ADMIN_PASSWORD:-/run/secrets/admin_password}" /run/gantry-secrets/admin.password
export SLURM_CONF="$slurm_conf_dir/slurm.conf" HOME=/home/gantry
exec setpriv --reuid=gantry --regid=gantry --init-groups -- \
  /opt/gantry/middleware-server/bin/gantry-server --config "${GANTRY_CONFIG:-/etc/gantry/gantry-server.properties}"
