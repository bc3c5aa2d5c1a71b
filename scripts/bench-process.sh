#!/usr/bin/env bash
# Whole-process figures of BENCHMARKS.md: wall time and peak memory (max RSS) of `labctl` on each
# workload, medians of RUNS runs, measured with GNU time (`/usr/bin/time -v`).
# Usage: scripts/bench-process.sh [LABCTL] [RUNS]   (inputs are generated into a temp folder)
set -euo pipefail
cd "$(dirname "$0")/.."
labctl="${1:-target/release/labctl}"
runs="${2:-5}"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
cargo run -q --release -p talos-machineconfig --example perf-inputs -- "$dir" >/dev/null

labels=()
for f in "$dir"/labels/*.yaml; do labels+=(-p "@$f"); done

measure() {
    local name="$1"; shift
    local walls=() rss=()
    for _ in $(seq "$runs"); do
        # GNU time's wall clock has 10 ms steps: the wall time is taken around it in microseconds.
        local start="$EPOCHREALTIME"
        /usr/bin/time -v -o "$dir/time.txt" "$@" >/dev/null 2>"$dir/stderr.txt" || true
        local end="$EPOCHREALTIME"
        walls+=("$(awk -v a="$start" -v b="$end" 'BEGIN {printf "%.1f", (b - a) * 1000}')")
        rss+=("$(awk -F': ' '/Maximum resident/ {printf "%.1f", $2/1024}' "$dir/time.txt")")
    done
    local wall mem
    wall="$(printf '%s\n' "${walls[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')"
    mem="$(printf '%s\n' "${rss[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')"
    printf '| %s | %s ms | %s MiB |\n' "$name" "$wall" "$mem"
}

echo "| workload | wall (median of $runs) | peak RSS (median) |"
echo "|---|---|---|"
measure "W1 worker + 1 label patch" "$labctl" merge "$dir/worker.yaml" -p "@$dir/label.yaml"
measure "W2 controlplane + 110 inline manifests (10.6 MiB) + 1 patch" "$labctl" merge "$dir/big-10.yaml" -p "@$dir/label.yaml"
measure "W3 controlplane + 300 one-label patches" "$labctl" merge "$dir/controlplane.yaml" "${labels[@]}"
"$labctl" merge "$dir/big-10.yaml" -p "@$dir/label.yaml" -o "$dir/merged-10.yaml"
measure "W4 validate the 10.6 MiB result (container)" "$labctl" validate --mode container --config "$dir/merged-10.yaml"
measure "W5 validate the worker fixture (container)" "$labctl" validate --mode container --config "$dir/worker.yaml"
measure "W6 JSON6902 patch on the 10.6 MiB config (refused)" "$labctl" merge "$dir/big-10.yaml" -p "@$dir/json6902.yaml"
measure "W7 56.7 MiB config + 1 patch" "$labctl" merge "$dir/big-50.yaml" -p "@$dir/label.yaml"
"$labctl" merge "$dir/big-50.yaml" -p "@$dir/label.yaml" -o "$dir/merged-50.yaml"
measure "W8 validate the 56.7 MiB result (container)" "$labctl" validate --mode container --config "$dir/merged-50.yaml"
