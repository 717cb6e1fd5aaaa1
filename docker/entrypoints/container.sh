# Shared by the containers' main scripts (run-*.sh; sourced): the cluster's shape comes from
# the environment, the same on every container of the compose file, so each container writes
# the same slurm.conf for itself. Secrets are files mounted by the engine, never variables.
#   GANTRY_SLURM_CONTROLLER  host name of the controller (default slurmctld)
#   GANTRY_SLURM_NODES       host names of the compute nodes, separated by spaces (node1 node2)
#   GANTRY_SLURM_CPUS        CPUs per node (2);  GANTRY_SLURM_MEMORY  MB per node (1024)
#   GANTRY_MUNGE_KEY         the cluster's MUNGE key file (/run/secrets/munge_key)
here=$(cd "$(dirname "$0")" && pwd)
slurm_conf_dir=/etc/slurm
munge_socket=/run/munge/munge.socket.2
slurm_state=/var/spool/slurm

write_slurm_conf() {
  local controller="${GANTRY_SLURM_CONTROLLER:-slurmctld}" nodes=() args=()
  read -r -a nodes <<<"${GANTRY_SLURM_NODES:-node1 node2}"
  for n in "${nodes[@]}"; do args+=(--node "$n=$n"); done
  "$here/slurm-conf.sh" --out "$slurm_conf_dir" --controller "$controller=$controller" "${args[@]}" \
    --munge-socket "$munge_socket" --state-dir "$slurm_state" \
    --cpus "${GANTRY_SLURM_CPUS:-2}" --memory "${GANTRY_SLURM_MEMORY:-1024}"
}

# munged in the background (the container's main process is the Slurm or Gantry daemon).
start_munged() {
  "$here/munged.sh" --key "${GANTRY_MUNGE_KEY:-/run/secrets/munge_key}" --socket "$munge_socket" \
    --state-dir /var/lib/gantry-munge --pid-file /run/munged.pid --detach /var/log/munged.log
  local waited=0
  until [ -S "$munge_socket" ]; do
    [ "$waited" -lt 100 ] || { cat /var/log/munged.log >&2; echo "munged did not start" >&2; exit 1; }
    sleep 0.1
    waited=$((waited + 1))
  done
}
