#!/usr/bin/env bash
# Re-records NAME.controlplane.yaml and NAME.worker.yaml for every NAME.args here (or the
# names given), by running talosctl v1.14.0-rc.1's own `gen config` (the v1.14 oracle, `TAG` unset)
# with the arguments after `talosctl` in NAME.args, from this directory.
#
# Usage: ORACLE=/tmp/oracle-1.14/bin/oracle ./record.sh [NAME...]
set -eu
ORACLE=${ORACLE:-/tmp/oracle-1.14/bin/oracle}
cd "$(dirname "${BASH_SOURCE[0]}")"
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
    for f in *.args; do names+=("${f%.args}"); done
fi
for name in "${names[@]}"; do
    read -r -a words < "$name.args"
    [ "${words[0]} ${words[1]} ${words[2]}" = "talosctl gen config" ] || { echo "$name: not gen config" >&2; exit 1; }
    out=$(mktemp -d)
    env -u TAG "$ORACLE" talosctl gen "${words[@]:2}" -o "$out" 2> /dev/null
    cp "$out/controlplane.yaml" "$name.controlplane.yaml"
    cp "$out/worker.yaml" "$name.worker.yaml"
    rm -rf "$out"
    echo "$name"
done
