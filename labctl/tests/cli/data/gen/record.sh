#!/usr/bin/env bash
# Re-records the reference behaviour of `talosctl gen ...` for every case
# directory under cases/ that has an `args` file: talosctl v1.13.9's here, another release's in
# the folder whose record.sh runs this one (`gen-v1.12/`, `gen-v1.14/`, which set DATA_DIR).
#
# Usage: ./record.sh [CASE-NAME...]        (default: all cases)
# Env:   ORACLE    path of the oracle binary (default: the folder's release's,
#                  /tmp/oracle/bin/oracle, /tmp/oracle-1.12/bin/oracle, /tmp/oracle-1.14/bin/oracle)
#        DATA_DIR  the data folder (default: this script's)
#
# Needs only bash + coreutils (+ the oracle). See README.md for the layout.
set -u

DATA_DIR=${DATA_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)}
export DATA_DIR
case "$(basename "$DATA_DIR")" in
    gen-v1.12) ORACLE=${ORACLE:-/tmp/oracle-1.12/bin/oracle} ;;
    gen-v1.14) ORACLE=${ORACLE:-/tmp/oracle-1.14/bin/oracle} ;;
    *) ORACLE=${ORACLE:-/tmp/oracle/bin/oracle} ;;
esac

if [ ! -x "$ORACLE" ]; then
    echo "record.sh: oracle not executable: $ORACLE" >&2
    exit 2
fi

# Prints "TYPE MODE HASH PATH" for everything below the current directory.
snapshot() {
    find . -mindepth 1 -printf '%P\n' | LC_ALL=C sort | while IFS= read -r p; do
        if [ -d "$p" ] && [ ! -L "$p" ]; then
            printf 'd %s - %s\n' "$(stat -c %a "$p")" "$p"
        else
            printf 'f %s %s %s\n' "$(stat -c %a "$p")" "$(md5sum < "$p" | cut -d' ' -f1)" "$p"
        fi
    done
}

# Key skeleton of a secrets bundle (its content is random).
skeleton() {
    grep -o '^ *[a-z0-9]*:' "$1"
    local sa
    sa=$(grep -A1 '^ *k8sserviceaccount:' "$1" | sed -n 's/^ *key: *//p')
    printf 'k8sserviceaccount key, first decoded line: %s\n' \
        "$(printf '%s' "$sa" | base64 -d 2>/dev/null | head -n 1)"
}

if [ $# -gt 0 ]; then
    cases=()
    for c in "$@"; do cases+=("$DATA_DIR/cases/${c%/}"); done
else
    cases=("$DATA_DIR"/cases/*)
fi

for case_dir in "${cases[@]}"; do
    [ -f "$case_dir/args" ] || continue
    name=$(basename "$case_dir")

    work=$(mktemp -d)
    capture=$(mktemp -d)
    cp "$DATA_DIR/secrets.yaml" "$DATA_DIR/secrets-v1.2.yaml" "$work/"
    cp -r "$DATA_DIR/patches" "$work/patches"
    chmod 644 "$work/secrets.yaml" "$work/secrets-v1.2.yaml"

    if [ -f "$case_dir/setup" ]; then
        (cd "$work" && umask 022 && bash "$case_dir/setup") || {
            echo "record.sh: $name: setup failed" >&2
            rm -rf "$work" "$capture"
            continue
        }
    fi

    before=$(cd "$work" && snapshot)

    mapfile -t args < "$case_dir/args"
    (
        cd "$work" && umask 022 &&
            exec env -u TAG "$ORACLE" talosctl gen "${args[@]}"
    ) > "$capture/stdout" 2> "$capture/stderr" < /dev/null
    code=$?

    after=$(cd "$work" && snapshot)

    # The absolute temp dir (default output paths) is replaced by @CWD@.
    phys=$(cd "$work" && pwd -P)
    for s in stdout stderr; do
        sed -i -e "s|$phys|@CWD@|g" -e "s|$work|@CWD@|g" "$capture/$s"
    done

    rm -rf "$case_dir/files" "$case_dir/modes" "$case_dir/keys" \
        "$case_dir/stdout" "$case_dir/stderr" "$case_dir/exit"

    printf '%s\n' "$code" > "$case_dir/exit"

    # Created or changed entries: present after, and not identical before.
    created=$(LC_ALL=C comm -13 <(printf '%s\n' "$before" | LC_ALL=C sort) \
        <(printf '%s\n' "$after" | LC_ALL=C sort) | sed '/^$/d' |
        LC_ALL=C sort -k4)

    : > "$case_dir/modes"
    if [ -n "$created" ]; then
        mkdir -p "$case_dir/files"
        while IFS=' ' read -r kind mode _hash path; do
            printf '%s %s\n' "$mode" "$path" >> "$case_dir/modes"
            if [ "$kind" = d ]; then
                mkdir -p "$case_dir/files/$path"
            elif [ -f "$case_dir/random" ]; then
                mkdir -p "$(dirname "$case_dir/files/$path")"
                : > "$case_dir/files/$path"
                { printf '== %s\n' "$path"; skeleton "$work/$path"; } >> "$case_dir/keys"
            else
                mkdir -p "$(dirname "$case_dir/files/$path")"
                cp "$work/$path" "$case_dir/files/$path"
            fi
        done <<< "$created"
    fi

    if [ -f "$case_dir/random" ] && [ -s "$capture/stdout" ]; then
        { printf '== (stdout)\n'; skeleton "$capture/stdout"; } >> "$case_dir/keys"
        skeleton "$capture/stdout" > "$capture/stdout.skel"
        mv "$capture/stdout.skel" "$capture/stdout"
    fi

    cp "$capture/stdout" "$case_dir/stdout"
    cp "$capture/stderr" "$case_dir/stderr"

    printf '%-48s exit=%s  %s\n' "$name" "$code" "$(head -n 1 "$case_dir/stderr")"
    rm -rf "$work" "$capture"
done
