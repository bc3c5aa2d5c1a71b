#!/usr/bin/env bash
# Issue 31: every crate packages alone and builds from its package (`cargo publish --dry-run` of the
# workspace, in dependency order), the packages' file lists and sizes (target/package/files.txt),
# labctl installed from its package with and without the `lab` feature (two executables: `labctl`
# and `labctl-lab`; one: `labctl`), and no locked dependency asking for a newer Rust than our
# rust-version.
set -euo pipefail
cd "$(dirname "$0")/.."

rm -rf target/package
# --no-verify: each package is built from its package by the labctl installs below (labctl's
# dependencies patched to the packaged crates), which saves CI the seven debug builds of verify.
cargo publish --workspace --dry-run --no-verify --locked 2>&1 | grep -v "^ *\(Compiling\|Downloaded\|Downloading\)"

list=target/package/files.txt
: > "$list"
for crate in target/package/tmp-crate/*.crate; do
    echo "== $(basename "$crate"): $(stat -c %s "$crate") bytes compressed, $(tar xzf "$crate" -O | wc -c) bytes" >> "$list"
    tar tzf "$crate" | sed 's|^[^/]*/||' | sort >> "$list"
done
cat "$list"
# Unpacked as crates.io serves them (verify would have left the same folders).
for crate in target/package/tmp-crate/*.crate; do
    tar xzf "$crate" -C target/package
done

# labctl from its own package, our other crates from theirs (as crates.io would serve them).
patches=()
for dir in target/package/*-0.1.0/; do
    name=$(basename "$dir" -0.1.0)
    [ "$name" = labctl ] || patches+=(--config "patch.crates-io.$name.path='$PWD/$dir'")
done
# The workspace's own target folder: the registry dependencies built by the tests are reused
# (our crates still build from their packages, whose paths differ), which saves CI a full build.
install() {
    local root=$1; shift
    cargo install --quiet --locked --path target/package/labctl-0.1.0 --debug --root "$root" \
        --target-dir target "${patches[@]}" "$@"
}
# Fresh roots: what each install leaves in bin/ is checked below.
rm -rf target/install-check/full target/install-check/merge-only
install target/install-check/full
install target/install-check/merge-only --no-default-features
# The full install has two executables (`labctl` runs `lab`, `sim` and help with `labctl-lab`,
# next to it), the merge-only one just `labctl`.
for root in full merge-only; do
    got=$(cd target/install-check/$root/bin && ls | tr '\n' ' ')
    want="labctl labctl-lab "
    [ "$root" = full ] || want="labctl "
    [ "$got" = "$want" ] || { echo "!!! $root: bin/ holds '$got', not '$want'" >&2; exit 1; }
done
expected="labctl 0.1.0 (Talos v1.13.9)"
for program in full/bin/labctl full/bin/labctl-lab merge-only/bin/labctl; do
    got=$(target/install-check/$program --version)
    [ "$got" = "$expected" ] || { echo "!!! $program --version says '$got', not '$expected'" >&2; exit 1; }
done
target/install-check/full/bin/labctl lab run --help >/dev/null
if target/install-check/merge-only/bin/labctl lab run --help 2>/dev/null; then
    echo "!!! labctl built without the lab feature runs 'lab'" >&2; exit 1
fi
echo "labctl installs from its package: $expected, with and without the lab feature" \
    "(labctl and labctl-lab; labctl alone)"

# rust-version: no locked dependency needs a newer Rust than ours (our own code is held to it by
# clippy's incompatible_msrv lint; no other toolchain can be installed here).
cargo metadata --format-version 1 --locked | python3 -c '
import json, sys
meta = json.load(sys.stdin)
ours = {p["name"]: p["rust_version"] for p in meta["packages"] if p["source"] is None}
def version(text):
    parts = [int(x) for x in text.split(".")]
    return tuple(parts + [0] * (3 - len(parts)))
msrv = max(version(v) for v in ours.values())
newer = [(p["name"], p["rust_version"]) for p in meta["packages"]
         if p.get("rust_version") and version(p["rust_version"]) > msrv]
if newer:
    sys.exit(f"dependencies need a newer Rust than {msrv}: {newer}")
print("rust-version", ".".join(map(str, msrv)), "holds for every locked dependency")
'
