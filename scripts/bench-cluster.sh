#!/usr/bin/env bash
# Whole-process figures of `labctl cluster check` for BENCHMARKS.md: a cluster of N nodes (three
# control planes, the rest workers, every node a full config made by `gen config` with its own
# hostname and address) checked as one folder; wall time and peak memory (GNU time), medians of
# RUNS runs.
#
# Usage: scripts/bench-cluster.sh [LABCTL] [RUNS] [N...]   (default target/release/labctl, 3, 100 1000 10000)
set -euo pipefail
cd "$(dirname "$0")/.."
labctl="${1:-target/release/labctl}"
runs="${2:-3}"
shift $(( $# > 2 ? 2 : $# ))
sizes=("${@:-100 1000 10000}")
[ ${#sizes[@]} -eq 1 ] && read -r -a sizes <<< "${sizes[0]}"
data=talos-config/tests/engine/data/cluster
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT

# Node i: the test cluster's control plane (i < 3) or worker, with hostname node-i and address
# 10.(i / 65536).(i / 256 % 256).(i % 256).
make_cluster() {
    local n=$1 out=$2
    mkdir -p "$out"
    python3 - "$n" "$out" "$data" <<'EOF'
import sys
n, out, data = int(sys.argv[1]), sys.argv[2], sys.argv[3]
cp = open(f"{data}/cp-1.yaml").read()
worker = open(f"{data}/worker-1.yaml").read()
for i in range(n):
    base, host, addr = (cp, "cp-1", "10.5.0.11") if i < 3 else (worker, "worker-1", "10.5.0.21")
    ip = f"10.{100 + i // 65536}.{i // 256 % 256}.{i % 256}"
    text = base.replace(f"hostname: {host}", f"hostname: node-{i}").replace(f"- {addr}/24", f"- {ip}/8")
    open(f"{out}/node-{i:05d}.yaml", "w").write(text)
EOF
}

echo "| nodes | inputs (MB) | wall time (median of $runs) | peak memory (median) | findings |"
echo "|---|---|---|---|---|"
for n in "${sizes[@]}"; do
    make_cluster "$n" "$dir/c$n"
    size=$(du -sm "$dir/c$n" | cut -f1)
    times=() mems=()
    for _ in $(seq "$runs"); do
        /usr/bin/time -f "%e %M" -o "$dir/time" "$labctl" cluster check "$dir/c$n" > "$dir/out" 2> "$dir/err" || true
        read -r t m < "$dir/time"
        times+=("$t") mems+=("$m")
    done
    median() { printf '%s\n' "$@" | sort -n | sed -n "$(( ($# + 1) / 2 ))p"; }
    findings=$(tail -1 "$dir/err" | sed 's/.*: \([0-9]* error[s]*, [0-9]* warning[s]*, [0-9]* info[s]*\)$/\1/')
    echo "| $n | $size | $(median "${times[@]}") s | $(( $(median "${mems[@]}") / 1024 )) MiB | $findings |"
    rm -rf "$dir/c$n"
done
