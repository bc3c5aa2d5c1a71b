#!/usr/bin/env python3
"""Records what Talos v1.14.0-rc.1's own code says of each `labctl upgrade --rewrite` case.

For every case of talos-config/tests/engine/data/upgrade/cases.tsv (see its README.md): merge the
case's base and patches as its `from` release (`labctl merge`), rewrite the result for v1.14.0-rc.1
(`labctl upgrade --rewrite`), then ask the v1.14 reference program to validate both configs and
to print the Kubernetes settings a node would use (`oracle effective`: every K8s* accessor of the
loaded config, through Talos's bridge). Writes recorded.tsv: the rewrite's FNV-1a 64 hash, how
many settings moved, both validations, and whether the effective settings are equal.

Needs a debug build of labctl (target/debug/labctl) and the reference program with its
`effective` command (ORACLE_1_14, default /tmp/oracle-1.14/bin/oracle); tests never do.

Usage: scripts/record-upgrade-cases.py [CASE...]   (no CASE: every case)
"""

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "talos-config/tests/engine/data/upgrade"
LABCTL = ROOT / "target/debug/labctl"
ORACLE = os.environ.get("ORACLE_1_14", "/tmp/oracle-1.14/bin/oracle")
PEER = Path(os.environ.get("TALOS_PEER_DIR", ROOT.parent / "shared/peer/talos-v1.13.9"))
if not PEER.is_absolute():
    PEER = ROOT / PEER


def resolve(spec):
    if spec.startswith("peer:"):
        return PEER / spec[len("peer:"):]
    return ROOT / spec


def fnv64(data):
    h = 0xCBF29CE484222325
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}"


def normalize(effective):
    """Values a node treats alike: the v1alpha1 bridge answers a credential provider config
    with no configuration whenever `machine.kubelet` exists, the documents answer none; the
    kubelet gets no credential configuration either way (kubelet_config.go)."""
    if effective.get("K8sCredentialProviderConfig") == {"Configuration": None}:
        effective["K8sCredentialProviderConfig"] = None
    return effective


def leaves(value, path=""):
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            out.update(leaves(v, f"{path}.{k}" if path else k))
        return out or {path: "{}"}
    if isinstance(value, list):
        out = {}
        for i, v in enumerate(value):
            out.update(leaves(v, f"{path}[{i}]"))
        return out or {path: "[]"}
    return {path: json.dumps(value)}


def validate(config, mode):
    run = subprocess.run([ORACLE, "validate", str(config), mode], capture_output=True, text=True)
    text = (run.stdout.strip() or run.stderr.strip()).replace(str(config.parent) + "/", "")
    lines = [line.replace("\t", "\\t") for line in text.splitlines() if line.strip()]
    return f"exit {run.returncode}: " + " | ".join(lines)


def effective(config):
    run = subprocess.run([ORACLE, "effective", str(config)], capture_output=True, text=True, check=True)
    return normalize(json.loads(run.stdout))


def record(name, release, mode, base, patches, work):
    before, after = work / f"{name}.before.yaml", work / f"{name}.after.yaml"
    merge = [str(LABCTL), "merge", "--talos-release", release, str(resolve(base)), "-o", str(before)]
    for patch in patches:
        merge += ["-p", "@" + str(resolve(patch))]
    subprocess.run(merge, check=True, capture_output=True)
    upgrade = [str(LABCTL), "upgrade", "--from", release, "--to", "v1.14.0-rc.1", "--mode", mode,
               str(before), "--rewrite", "-o", str(after)]
    run = subprocess.run(upgrade, capture_output=True, text=True)
    wrote = [line for line in run.stderr.splitlines() if "wrote" in line]
    if not wrote:
        raise SystemExit(f"{name}: the rewrite failed:\n{run.stderr}")
    moved = wrote[0].rsplit("(", 1)[1].split(" settings")[0].replace(" of ", "/")
    a, b = leaves(effective(before)), leaves(effective(after))
    differ = sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))
    equal = "equal" if not differ else "differ: " + ", ".join(differ)
    return "\t".join([name, fnv64(after.read_bytes()), moved, validate(after, mode), validate(before, mode), equal])


def main():
    wanted = set(sys.argv[1:])
    rows = [line.split("\t") for line in (DATA / "cases.tsv").read_text().splitlines()
            if line and not line.startswith("#")]
    out_path = DATA / "recorded.tsv"
    old = {}
    if out_path.exists():
        old = {line.split("\t")[0]: line for line in out_path.read_text().splitlines() if line}
    with tempfile.TemporaryDirectory() as tmp:
        for name, release, mode, base, *rest in rows:
            if wanted and name not in wanted:
                continue
            patches = rest[0].split() if rest and rest[0] else []
            old[name] = record(name, release, mode, base, patches, Path(tmp))
            print(old[name].split("\t")[0], old[name].split("\t")[-1][:100])
    names = [row[0] for row in rows]
    out_path.write_text("".join(old[n] + "\n" for n in names if n in old))


if __name__ == "__main__":
    main()
