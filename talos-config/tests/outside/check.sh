#!/usr/bin/env bash
# The program of issue 25, built as a user builds it (a crate outside the workspace, talos-config
# by path with the `serde` feature): its output and exit codes are compared exactly.
set -euo pipefail
cd "$(dirname "$0")/../../.."

build() {
    cargo build -q --manifest-path talos-config/tests/outside/Cargo.toml --target-dir target/outside
}
prog=target/outside/debug/talos-config-outside

# Runs the program; prints its stdout then `exit N`.
run() {
    local status=0
    "$prog" "$@" || status=$?
    echo "exit $status"
}

expect() {
    local name=$1 expected=$2
    shift 2
    local got
    got=$(run "$@")
    if [ "$got" != "$expected" ]; then
        echo "outside program, $name: expected" >&2
        printf '%s\n' "$expected" >&2
        echo "got" >&2
        printf '%s\n' "$got" >&2
        exit 1
    fi
    echo "outside program, $name: ok"
}

build
expect "step 7" 'fixtures/07-bad.yaml:3:5: error[talos-validation]: name "team name" is invalid
exit 1' fixtures/worker.yaml fixtures/07-bad.yaml
expect "step 5" 'exit 0' fixtures/worker.yaml fixtures/05-labels.yaml
expect "json" "$(cat talos-config/tests/outside/worker.json)
exit 0" json fixtures/worker.yaml
