#!/usr/bin/env bash
# Records what each Talos release's own code prints for one case of
# talos-config/tests/engine/data/releases (see its README.md): the merge of CASE/patch.yaml
# onto the lab's worker (or control plane, when CASE/base says so) and, for a case under
# validate/, `talosctl validate` in CASE/mode. Needs the reference programs
# (ORACLE_1_12, ORACLE_1_13, ORACLE_1_14: default /tmp/oracle-<line>/bin/oracle); tests never do.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
for case in "$@"; do
  case=$(cd "$case" && pwd)
  base=worker
  [ -f "$case/base" ] && base=$(tr -d '[:space:]' < "$case/base")
  config="$root/fixtures/$base.yaml"
  for pair in v1.12.11:1.12 v1.13.9:1.13 v1.14.0-rc.1:1.14; do
    tag=${pair%%:*} line=${pair##*:}
    var="ORACLE_${line/./_}"; var=${var/./_}
    oracle=${!var:-/tmp/oracle-$line/bin/oracle}
    rm -f "$case/$tag".{yaml,err,stderr,rc}
    merged=$(mktemp)
    if "$oracle" patch "$config" "$merged" "@$case/patch.yaml" 2>"$merged.err"; then
      if [ -f "$case/mode" ]; then
        set +e
        "$oracle" validate "$merged" "$(tr -d '[:space:]' < "$case/mode")" >/dev/null 2>"$case/$tag.stderr"
        echo $? > "$case/$tag.rc"
        set -e
      else
        "$oracle" patch "$config" - "@$case/patch.yaml" > "$case/$tag.yaml"
      fi
    elif [ ! -f "$case/mode" ]; then
      cp "$merged.err" "$case/$tag.err"
    fi
    rm -f "$merged" "$merged.err"
  done
done
