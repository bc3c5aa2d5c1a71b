#!/usr/bin/env bash
# Whole-process figures of BENCHMARKS.md: wall time and peak memory (max RSS) of `labctl` on each
# workload, medians of RUNS runs, measured with GNU time (`/usr/bin/time -v`).
#
# Usage: scripts/bench-process.sh [LABCTL] [RUNS] [ORACLE] [ORACLE_V1_12] [ORACLE_V1_14]
#
# LABCTL defaults to target/release/labctl, RUNS to 5. Inputs are generated into a temp folder.
# ORACLE (optional): a program with Talos v1.13.9's own code (`ORACLE patch BASE - PATCH...`,
# `ORACLE validate CFG MODE`, `ORACLE gen-config CLUSTER ENDPOINT OUTDIR FLAGS...`); each workload
# is then run on both sides, alternately, in the same run, and the table gets Talos's figures and
# the ratios. ORACLE_V1_12 (optional, with ORACLE): the same program built from Talos v1.12.11;
# W1, W2, W4 and gen are then measured again with `--talos-release v1.12.11` against it.
# ORACLE_V1_14 (optional, with ORACLE): the same from Talos v1.14.0-rc.1; W1, W2, W4, W5 and gen
# with `--talos-release v1.14.0-rc.1` against it.
set -euo pipefail
cd "$(dirname "$0")/.."
labctl="${1:-target/release/labctl}"
runs="${2:-5}"
oracle="${3:-}"
oracle12="${4:-}"
oracle14="${5:-}"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
cargo run -q --release -p talos-machineconfig --example perf-inputs -- "$dir" >/dev/null

labels=()
for f in "$dir"/labels/*.yaml; do labels+=(-p "@$f"); done

# Each program's file is dropped from the page cache first (`dd iflag=nocache`, no root needed),
# so that its pages are read in as any program's are on first use. Left as the linker or `cp`
# wrote them, a file is mapped in larger blocks: the same run then shows up to 1.5 MiB more RSS
# for labctl, and a different amount for the other program.
# (`sync` first: pages not yet written back cannot be dropped.) Every workload here runs in
# `labctl` itself; `labctl-lab` next to it (which `labctl` runs for `lab`, `sim` and help) is
# dropped too, for any command line added here that goes to it.
companion="$(dirname "$labctl")/labctl-lab"
[ -e "$companion" ] || companion=""
for prog in "$labctl" "$companion" "$oracle" "$oracle12" "$oracle14"; do
    if [ -n "$prog" ]; then sync -- "$prog" && dd if="$prog" iflag=nocache count=0 status=none; fi
done

# One run of a command under GNU time: sets $wall (ms) and $rss (MiB).
once() {
    # GNU time's wall clock has 10 ms steps: the wall time is taken around it in microseconds.
    local start="$EPOCHREALTIME"
    /usr/bin/time -v -o "$dir/time.txt" "$@" >/dev/null 2>"$dir/stderr.txt" || true
    local end="$EPOCHREALTIME"
    wall="$(awk -v a="$start" -v b="$end" 'BEGIN {printf "%.1f", (b - a) * 1000}')"
    rss="$(awk -F': ' '/Maximum resident/ {printf "%.1f", $2/1024}' "$dir/time.txt")"
}

median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# measure NAME LABCTL-COMMAND... [-- ORACLE-COMMAND...]: the two sides alternate, run by run.
measure() {
    local name="$1"; shift
    local ours=() theirs=()
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do ours+=("$1"); shift; done
    [ $# -gt 0 ] && shift
    theirs=("$@")
    local walls=() rsss=() twalls=() trsss=()
    for _ in $(seq "$runs"); do
        once "${ours[@]}"; walls+=("$wall"); rsss+=("$rss")
        if [ ${#theirs[@]} -gt 0 ]; then
            once "${theirs[@]}"; twalls+=("$wall"); trsss+=("$rss")
        fi
    done
    local w m
    w="$(median "${walls[@]}")"; m="$(median "${rsss[@]}")"
    if [ -z "$oracle" ]; then
        printf '| %s | %s ms | %s MiB |\n' "$name" "$w" "$m"
    elif [ ${#theirs[@]} -eq 0 ]; then
        printf '| %s | — | %s ms | — | — | %s MiB | — |\n' "$name" "$w" "$m"
    else
        local tw tm
        tw="$(median "${twalls[@]}")"; tm="$(median "${trsss[@]}")"
        awk -v n="$name" -v w="$w" -v m="$m" -v tw="$tw" -v tm="$tm" \
            'BEGIN {printf "| %s | %s ms | %s ms | %.2f | %s MiB | %s MiB | %.2f |\n", n, tw, w, w / tw, tm, m, m / tm}'
    fi
}

# A secrets bundle for `gen config` (both sides read the same one).
"$labctl" gen secrets -o "$dir/secrets.yaml" >/dev/null 2>&1
"$labctl" merge "$dir/big-10.yaml" -p "@$dir/label.yaml" -o "$dir/merged-10.yaml"
"$labctl" merge "$dir/big-50.yaml" -p "@$dir/label.yaml" -o "$dir/merged-50.yaml"
gen_flags=(--with-secrets "$dir/secrets.yaml")
# talosctl writes documentation comments and examples unless told not to; labctl never does.
talos_gen_flags=("${gen_flags[@]}" --with-docs=false --with-examples=false --force)

if [ -z "$oracle" ]; then
    echo "| workload | wall (median of $runs) | peak RSS (median) |"
    echo "|---|---|---|"
    o() { :; }
else
    echo "| workload | Talos | labctl | time ratio | Talos peak | labctl peak | memory ratio |"
    echo "|---|---|---|---|---|---|---|"
    o() { printf '%s\n' -- "$oracle" "$@"; }
fi
# `o ARGS...` is the oracle's side of a measure line (nothing without an oracle).
side() { mapfile -t side_args < <(o "$@"); }

measure "labctl --version (start-up)" "$labctl" --version
side patch "$dir/worker.yaml" - "@$dir/label.yaml"
measure "W1 worker + 1 label patch" "$labctl" merge "$dir/worker.yaml" -p "@$dir/label.yaml" "${side_args[@]}"
side patch "$dir/big-10.yaml" - "@$dir/label.yaml"
measure "W2 10.6 MiB config + 1 patch" "$labctl" merge "$dir/big-10.yaml" -p "@$dir/label.yaml" "${side_args[@]}"
talos_labels=()
for f in "$dir"/labels/*.yaml; do talos_labels+=("@$f"); done
side patch "$dir/controlplane.yaml" - "${talos_labels[@]}"
measure "W3 controlplane + 300 patches" "$labctl" merge "$dir/controlplane.yaml" "${labels[@]}" "${side_args[@]}"
side validate "$dir/merged-10.yaml" container
measure "W4 validate the 10.6 MiB result" "$labctl" validate --mode container --config "$dir/merged-10.yaml" "${side_args[@]}"
side validate "$dir/worker.yaml" container
measure "W5 validate the worker fixture" "$labctl" validate --mode container --config "$dir/worker.yaml" "${side_args[@]}"
side patch "$dir/big-10.yaml" - "@$dir/json6902.yaml"
measure "W6 JSON6902 on the 10.6 MiB config (refused)" "$labctl" merge "$dir/big-10.yaml" -p "@$dir/json6902.yaml" "${side_args[@]}"
side patch "$dir/big-50.yaml" - "@$dir/label.yaml"
measure "W7 56.7 MiB config + 1 patch" "$labctl" merge "$dir/big-50.yaml" -p "@$dir/label.yaml" "${side_args[@]}"
side validate "$dir/merged-50.yaml" container
measure "W8 validate the 56.7 MiB result" "$labctl" validate --mode container --config "$dir/merged-50.yaml" "${side_args[@]}"
side gen-config demo https://10.5.0.2:6443 "$dir/gen-talos" "${talos_gen_flags[@]}"
measure "gen config (with secrets)" "$labctl" gen config demo https://10.5.0.2:6443 "${gen_flags[@]}" -o "$dir/gen-labctl" --force "${side_args[@]}"

if [ -n "$oracle12" ]; then
    oracle="$oracle12"
    r=(--talos-release v1.12.11)
    side patch "$dir/worker.yaml" - "@$dir/label.yaml"
    measure "W1 --talos-release v1.12.11" "$labctl" merge "${r[@]}" "$dir/worker.yaml" -p "@$dir/label.yaml" "${side_args[@]}"
    side patch "$dir/big-10.yaml" - "@$dir/label.yaml"
    measure "W2 --talos-release v1.12.11" "$labctl" merge "${r[@]}" "$dir/big-10.yaml" -p "@$dir/label.yaml" "${side_args[@]}"
    side validate "$dir/merged-10.yaml" container
    measure "W4 --talos-release v1.12.11" "$labctl" validate "${r[@]}" --mode container --config "$dir/merged-10.yaml" "${side_args[@]}"
    side gen-config demo https://10.5.0.2:6443 "$dir/gen-talos" "${talos_gen_flags[@]}"
    measure "gen config --talos-release v1.12.11" "$labctl" gen config "${r[@]}" demo https://10.5.0.2:6443 "${gen_flags[@]}" -o "$dir/gen-labctl" --force "${side_args[@]}"
fi

if [ -n "$oracle14" ]; then
    oracle="$oracle14"
    r=(--talos-release v1.14.0-rc.1)
    side patch "$dir/worker.yaml" - "@$dir/label.yaml"
    measure "W1 --talos-release v1.14.0-rc.1" "$labctl" merge "${r[@]}" "$dir/worker.yaml" -p "@$dir/label.yaml" "${side_args[@]}"
    side patch "$dir/big-10.yaml" - "@$dir/label.yaml"
    measure "W2 --talos-release v1.14.0-rc.1" "$labctl" merge "${r[@]}" "$dir/big-10.yaml" -p "@$dir/label.yaml" "${side_args[@]}"
    side validate "$dir/merged-10.yaml" container
    measure "W4 --talos-release v1.14.0-rc.1" "$labctl" validate "${r[@]}" --mode container --config "$dir/merged-10.yaml" "${side_args[@]}"
    side validate "$dir/worker.yaml" container
    measure "W5 --talos-release v1.14.0-rc.1" "$labctl" validate "${r[@]}" --mode container --config "$dir/worker.yaml" "${side_args[@]}"
    side gen-config demo https://10.5.0.2:6443 "$dir/gen-talos" "${talos_gen_flags[@]}"
    measure "gen config --talos-release v1.14.0-rc.1" "$labctl" gen config "${r[@]}" demo https://10.5.0.2:6443 "${gen_flags[@]}" -o "$dir/gen-labctl" --force "${side_args[@]}"
fi
