#!/usr/bin/env bash
# Main process of the compute-node image: slurm.conf from the environment (container.sh), munged
# and sshd (for mpirun across hosts, account gantry) in the background, slurmd in the foreground
# under the node name GANTRY_SLURM_NODE_NAME (default: the host name).
#   GANTRY_SSH_HOST_KEY         the nodes' shared host key (/run/secrets/ssh_host_key)
#   GANTRY_SSH_AUTHORIZED_KEYS  public keys allowed to log in as gantry (/run/secrets/gantry_ssh_pub)
set -euo pipefail
. "$(dirname "$0")/container.sh"
write_slurm_conf
start_munged
# sshd refuses a host key that others can read (mounted secrets are often 0444), and reads
# authorized_keys as the logging-in user: the folder stays traversable.
install -d -m 0755 /etc/ssh/gantry
install -m 0600 "${GANTRY_SSH_HOST_KEY:-/run/secrets/ssh_host_key}" /etc/ssh/gantry/ssh_host_ed25519_key
install -m 0644 "${GANTRY_SSH_AUTHORIZED_KEYS:-/run/secrets/gantry_ssh_pub}" /etc/ssh/gantry/authorized_keys
"$here/sshd.sh" --conf /run/gantry-sshd --host-key /etc/ssh/gantry/ssh_host_ed25519_key \
  --authorized-keys /etc/ssh/gantry/authorized_keys --user gantry --port 22 \
  --pid-file /run/gantry-sshd.pid --detach /var/log/sshd.log
exec "$here/slurmd.sh" --conf "$slurm_conf_dir" --node "${GANTRY_SLURM_NODE_NAME:-$(hostname)}"
