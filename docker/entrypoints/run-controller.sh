#!/usr/bin/env bash
# Main process of the slurm-controller image: slurm.conf from the environment (container.sh),
# munged in the background, slurmctld in the foreground.
set -euo pipefail
. "$(dirname "$0")/container.sh"
write_slurm_conf
start_munged
exec "$here/slurmctld.sh" --conf "$slurm_conf_dir"
