#!/usr/bin/env bash
# Submit a sweep as N shards (one SLURM job array, exclusive nodes) and its merge (a job that
# waits for the array): the plain-sbatch way, without submitit.
#
#   scripts/slurm/submit.sh N RESULTS [llpbench run options...]
#   scripts/slurm/submit.sh 8 "$PWD/results/paper" --config configs/paper.toml
#
# sbatch options come from the environment as usual (SBATCH_PARTITION, SBATCH_ACCOUNT,
# SBATCH_TIMELIMIT, ...). Prints the two job ids.
set -euo pipefail
if [ $# -lt 3 ]; then
    echo "usage: $0 N RESULTS llpbench-run-options..." >&2
    exit 2
fi
N=$1
RESULTS=$2
shift 2
LLPBENCH_ARGS="$*"
export N RESULTS LLPBENCH_ARGS
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$RESULTS"
array=$(sbatch --parsable --array="1-$N" "$here/sweep-shard.sbatch")
array=${array%%;*}  # --parsable prints "id" or "id;cluster"
merge=$(sbatch --parsable --dependency="afterany:$array" "$here/sweep-merge.sbatch")
echo "shards: job array $array (1-$N); merge: job ${merge%%;*} -> $RESULTS/merged-${merge%%;*}"
