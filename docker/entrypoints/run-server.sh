#!/usr/bin/env bash
# Main process of the gantry-server image: slurm.conf and munged so that the server's sbatch,
# squeue, scontrol and scancel reach the controller; ssh set up for account gantry (mpirun to
# the nodes, strict host key checking against the nodes' key); then gantry-server as root, which
# it must be to start each job under its user's OS account in a bubblewrap sandbox
# (docs/security.md; compose.yaml gives the container what bwrap needs).
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
# The server refuses a data directory owned by another account; others may only pass through
# (0711), to the job directories under it.
install -d -o root -g root -m 0711 /var/lib/gantry /var/lib/gantry/jobs
# The server reads passwords only from files its own user alone can read; mounted secrets are
# often 0444: copy them.
install -d -o root -g root -m 0700 /run/gantry-secrets
install -o root -g root -m 0400 "${GANTRY_STORE_PASSWORD:-/run/secrets/postgres_password}" /run/gantry-secrets/store.password
install -o root -g root -m 0400 "${GANTRY_ADMIN_PASSWORD:-/run/secrets/admin_password}" /run/gantry-secrets/admin.password
export SLURM_CONF="$slurm_conf_dir/slurm.conf"
exec /opt/gantry/middleware-server/bin/gantry-server --config "${GANTRY_CONFIG:-/etc/gantry/gantry-server.properties}"
