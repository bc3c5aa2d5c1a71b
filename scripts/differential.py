#!/usr/bin/env python3
"""Differential test of `labctl merge` / `labctl validate` against Talos's own code.

Generates randomized cases (a base machine config and 1-3 patches) reproducibly from a seed, runs
each case through the oracle program built from Talos's Go code for a release (see
../shared/oracle-1.12/README.md: `oracle patch BASE OUT PATCH...`, `oracle validate CFG MODE
[--strict]`) and through `labctl merge --talos-release R` / `labctl validate --talos-release R`,
and compares stdout, stderr and exit codes after a fixed normalisation (calibrated with
--calibrate on known cases, both releases):

  * merge stdout: compared byte for byte. The oracle's `patch BASE -` is talosctl's
    `fmt.Printf("%s\n", patchedData)`, so it too ends with the config's own newline plus one
    added newline, exactly as `labctl merge` prints; nothing is stripped. (--strip-merge-newline
    drops labctl's final newline first, for a labctl build that prints one more than talosctl.)
  * stderr: the oracle prints Go's `err.Error()` and a newline with no `Error: ` prefix (talosctl
    silences cobra's own printing), the same text labctl prints. labctl may add one hint line
    after it, `labctl: in <input> at line L[, column C]`; such trailing lines are dropped from
    labctl's stderr before comparing, and so is the usage block before them that talosctl's root
    command prints (and labctl with it) after an error whose text holds `flag`, `command` or
    `arg(s)` (the reference program runs no root command). A labctl build from before 2026-12-07 printed a first warning
    line for v1.14.0-rc.1 (`labctl: warning: Talos v1.14.0-rc.1 is a preview: ...`,
    PREVIEW_WARNING); exactly that line is dropped too. Nothing else is rewritten.
  * exit codes: compared as they are (0 success, 1 error). An oracle exit 2 whose stderr holds
    `panic:` is a Go panic: the case is counted as an oracle panic and not compared.

Validation runs only when the merge succeeded and both tools agreed on it; both then validate the
same file (`merged.yaml`: the oracle's stdout without talosctl's added newline) in the case's mode
(container, metal or cloud; --strict in about 30% of cases).

Every case is generated from (seed, case index) alone, so `--case 123` replays case 123 of any
run with the same seed, whatever -n or the number of workers. v1.12.11 and v1.13.9 share one case
stream. v1.14.0-rc.1 (only with --release) has its own: the same seed and index give
other cases, built mostly (about 75% of patches) from the generators for what v1.14 adds
(docs/versions.md section 2b: the 24 `types/k8s` kinds and 21 other new kinds, with their conflicts
with v1alpha1 settings and `$patch: delete` of those settings; new fields of existing kinds; the
patcher rules; the cross-document rules), onto v1.13's bases plus v1.14's peer data. Its summary
ends with a coverage report: cases per new kind and rule (by the patches' `what` names, all
starting with "v1.14 "), how many reached validation, and how often the oracle said each new text.
--oracle-only runs the oracle alone (no labctl): for the coverage report and --stats. Each mismatch is written to
OUT/RELEASE/case-NNNNN/ with the base, the patches, both tools' outputs and a run.sh.

Usage:
  python3 scripts/differential.py --release v1.13.9 -n 300 --seed 1 --out /tmp/diff-out
  python3 scripts/differential.py --release v1.12.11 -n 5000 --seed 1 --out /tmp/diff-out
  python3 scripts/differential.py --release v1.12.11 --seed 1 --case 42 --case 77 --verbose
  python3 scripts/differential.py --calibrate          # prints raw outputs of a few known cases
  python3 scripts/differential.py --release v1.12.11 --cases-from /tmp/diff-out/summary-v1.12.11.json \
      --labctl target/debug/labctl --out /tmp/diff-recheck   # replay earlier mismatches on another build
  python3 scripts/differential.py --dump -n 5          # print generated cases without running them
  python3 scripts/differential.py --release v1.14.0-rc.1 -n 500 --oracle-only   # v1.14 coverage, no labctl

The reference programs are built with Go 1.27, whose `encoding/json` runs on the v2
implementation and words some type errors differently from Go 1.25 and 1.26, which Talos's own
binaries are built with (`Patch.0` against `Go value`); a reference program rebuilt with
GOEXPERIMENT=nojsonv2 (`--oracle-1.13 .../oracle-v1json`) prints Talos's texts there.

Python 3.11 standard library only.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import dataclasses
import glob
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict

RELEASES = ("v1.12.11", "v1.13.9", "v1.14.0-rc.1")
DEFAULT_RELEASES = ("v1.12.11", "v1.13.9")  # without --release; v1.14.0-rc.1 only when asked for
DEFAULT_ORACLES = {
    "v1.12.11": "/tmp/oracle-1.12/bin/oracle",
    "v1.13.9": "/tmp/oracle-1.13/bin/oracle",
    "v1.14.0-rc.1": "/tmp/oracle-1.14/bin/oracle",
}
# The first stderr line older labctl builds printed for v1.14.0-rc.1, dropped before comparing
# (exactly this line), so that earlier builds can still be replayed.
PREVIEW_WARNING = {
    "v1.14.0-rc.1": b"labctl: warning: Talos v1.14.0-rc.1 is a preview: some of its document kinds, rules and texts are not reproduced yet, "
    b"so answers may differ from talosctl v1.14.0-rc.1 (KNOWN_GAPS.md lists what is missing)\n",
}
DEFAULT_LABCTL = "/tmp/difftarget/release/labctl"
HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
SHARED = os.path.normpath(os.path.join(REPO, "..", "shared"))

# ---------------------------------------------------------------------------------------------
# A small YAML emitter (block, flow and JSON styles) with escape hatches for raw text.
# ---------------------------------------------------------------------------------------------


class Raw:
    """A scalar written verbatim (tags, anchors, aliases, odd numbers such as `1e3`)."""

    def __init__(self, text: str):
        self.text = text

    def __repr__(self) -> str:
        return f"Raw({self.text!r})"


class Block:
    """A string written as a block scalar (`|`, `|-`, `>`...) in block style."""

    def __init__(self, text: str, indicator: str = "|"):
        self.text = text
        self.indicator = indicator


_PLAIN_OK = re.compile(r"[A-Za-z0-9/_.$][A-Za-z0-9 ._/:=,+@%*()-]*")
_PLAIN_BAD = re.compile(
    r"(?i)(y|yes|n|no|true|false|on|off|null|~|[-+]?(\d[\d_]*)?(\.\d*)?([eE][-+]?\d+)?|[-+]?0x[0-9a-f_]+|"
    r"[-+]?0o?[0-7_]+|[-+]?\.inf|\.nan|[-+]?[\d_]+(:[0-5]?\d)+(\.\d*)?|\d{4}-\d\d?-\d\d?.*)"
)


def scalar(v, rng: random.Random | None = None) -> str:
    if isinstance(v, Raw):
        return v.text
    if isinstance(v, Block):
        return json.dumps(v.text, ensure_ascii=False)
    if v is None:
        return "null" if rng is None else rng.choice(["null", "null", "~", ""])
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    s = str(v)
    if (
        s
        and _PLAIN_OK.fullmatch(s)
        and not _PLAIN_BAD.fullmatch(s)
        and not s.endswith(" ")
        and ": " not in s
        and " #" not in s
        and not s.endswith(":")
    ):
        return s
    if rng is not None and "'" not in s and "\n" not in s and not any(ord(c) < 32 for c in s) and rng.random() < 0.3:
        return "'" + s + "'"
    return json.dumps(s, ensure_ascii=False)


def emit_flow(v, rng=None) -> str:
    if isinstance(v, dict):
        return "{" + ", ".join(f"{scalar(k)}: {emit_flow(x, rng)}" for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ", ".join(emit_flow(x, rng) for x in v) + "]"
    s = scalar(v, rng)
    return s if s != "" else "null"


def emit_json(v) -> str:
    def conv(x):
        if isinstance(x, dict):
            return {str(k): conv(y) for k, y in x.items()}
        if isinstance(x, list):
            return [conv(y) for y in x]
        if isinstance(x, Block):
            return x.text
        if isinstance(x, Raw):
            return x.text
        return x

    return json.dumps(conv(v), ensure_ascii=False)


def emit_block(v, indent: int, rng: random.Random, seq_indent: int) -> list[str]:
    """Lines for a value placed as the content of a mapping key at `indent`."""
    pad = " " * indent
    out: list[str] = []
    if isinstance(v, dict):
        for k, x in v.items():
            key = scalar(k)
            out.extend(_entry(pad + key + ":", x, indent, rng, seq_indent))
        return out
    if isinstance(v, list):
        for x in v:
            if isinstance(x, dict) and x:
                first = True
                for k, y in x.items():
                    prefix = (pad + "- ") if first else (pad + "  ")
                    out.extend(_entry(prefix + scalar(k) + ":", y, indent + 2, rng, seq_indent))
                    first = False
            elif isinstance(x, (dict, list)) and not x:
                out.append(pad + "- " + ("{}" if isinstance(x, dict) else "[]"))
            elif isinstance(x, list):
                out.append(pad + "- " + emit_flow(x, rng))
            else:
                s = scalar(x, rng)
                out.append(pad + "-" + (" " + s if s else ""))
        return out
    raise TypeError(v)


def _entry(head: str, x, indent: int, rng: random.Random, seq_indent: int) -> list[str]:
    if isinstance(x, dict) and x:
        if rng.random() < 0.08:
            return [head + " " + emit_flow(x, rng)]
        return [head] + emit_block(x, indent + 2, rng, seq_indent)
    if isinstance(x, list) and x:
        if rng.random() < 0.15:
            return [head + " " + emit_flow(x, rng)]
        return [head] + emit_block(x, indent + seq_indent, rng, seq_indent)
    if isinstance(x, dict):
        return [head + " {}"]
    if isinstance(x, list):
        return [head + " []"]
    if isinstance(x, Block):
        lines = [head + " " + x.indicator]
        body = x.text
        if body.endswith("\n"):
            body = body[:-1]
        for line in body.split("\n"):
            lines.append((" " * (indent + 2) + line) if line else "")
        return lines
    s = scalar(x, rng)
    return [head + (" " + s if s != "" else "")]


def emit_doc(doc, rng: random.Random) -> str:
    style = rng.choices(["block", "flow", "json"], [85, 7, 8])[0]
    if not isinstance(doc, (dict, list)) or not doc:
        return emit_flow(doc, rng) + "\n"
    if style == "json" and not _has_raw(doc):
        return emit_json(doc) + "\n"
    if style == "flow":
        return emit_flow(doc, rng) + "\n"
    return "\n".join(emit_block(doc, 0, rng, rng.choice([0, 2, 2, 4]))) + "\n"


def _has_raw(v) -> bool:
    if isinstance(v, Raw):
        return True
    if isinstance(v, dict):
        return any(_has_raw(x) for x in v.values())
    if isinstance(v, list):
        return any(_has_raw(x) for x in v)
    return False


def deep_merge(a: dict, b: dict) -> dict:
    out = dict(a)
    for k, v in b.items():
        if k in out and isinstance(out[k], dict) and isinstance(v, dict):
            out[k] = deep_merge(out[k], v)
        else:
            out[k] = v
    return out


def nest(path: list[str], value) -> dict:
    for key in reversed(path):
        value = {key: value}
    return value


# ---------------------------------------------------------------------------------------------
# Bases
# ---------------------------------------------------------------------------------------------

HAND_BASES = {
    "hand/minimal-worker.yaml": "version: v1alpha1\nmachine:\n    type: worker\n",
    "hand/minimal-v1alpha1.yaml": "version: v1alpha1\n",
    "hand/empty.yaml": "",
    "hand/comment-only.yaml": "# nothing here\n",
    "hand/kinds-only.yaml": (
        "apiVersion: v1alpha1\nkind: LinkAliasConfig\nname: net0\nselector:\n    match: mac(link.permanent_addr) == \"00:1a:2b:3c:4d:5e\"\n"
        "---\napiVersion: v1alpha1\nkind: UserVolumeConfig\nname: data\nprovisioning:\n    diskSelector:\n        match: \"!system_disk\"\n"
        "    minSize: 1GiB\n"
    ),
    "hand/hostname-only.yaml": "apiVersion: v1alpha1\nkind: HostnameConfig\nhostname: node-1\n",
    "hand/worker-with-extraargs.yaml": (
        "version: v1alpha1\nmachine:\n    type: worker\n    kubelet:\n        extraArgs:\n            v: \"2\"\n"
        "            feature-gates: A=true\ncluster:\n    apiServer:\n        extraArgs:\n            bind-address: 0.0.0.0\n"
        "    proxy:\n        extraArgs:\n            v: \"4\"\n"
    ),
    "hand/json.yaml": '{"version": "v1alpha1", "machine": {"type": "worker", "nodeLabels": {"a": "b"}}}\n',
    "hand/files.yaml": (
        "version: v1alpha1\nmachine:\n    type: worker\n    files:\n        - content: |\n\n            foo\n"
        "          permissions: 0o644\n          path: /var/f\n          op: create\n    sysctls:\n        net.core.x: |-\n\n            foo\n"
    ),
    "hand/interfaces.yaml": (
        "version: v1alpha1\nmachine:\n    type: controlplane\n    network:\n        interfaces:\n            - interface: eth0\n"
        "              mtu: 1500\n              dhcp: true\n            - interface: eth1\n              addresses:\n"
        "                - 10.0.0.2/24\n"
    ),
}


def load_bases(shared: str, fixtures: str) -> list[tuple[str, str, bytes]]:
    """(category, name, bytes), sorted by name, deduplicated by content."""
    found: list[tuple[str, str, bytes]] = []
    seen: set[bytes] = set()

    def add(cat: str, name: str, data: bytes):
        if data in seen:
            return
        seen.add(data)
        found.append((cat, name, data))

    for name, text in HAND_BASES.items():
        add("hand", name, text.encode())
    fixture_files = sorted(glob.glob(os.path.join(shared, "fixtures", "*.yaml"))) + sorted(
        glob.glob(os.path.join(fixtures, "*.yaml"))
    )
    for f in fixture_files:
        with open(f, "rb") as fh:
            add("fixture", os.path.relpath(f, os.path.dirname(shared)), fh.read())
    for rel in ("talos-v1.12.11", "talos-v1.13.9"):
        root = os.path.join(shared, "peer", rel)
        for f in sorted(glob.glob(os.path.join(root, "**", "*"), recursive=True)):
            if not os.path.isfile(f) or "/fuzz/" in f or not (f.endswith(".yaml") or f.endswith(".test")):
                continue
            with open(f, "rb") as fh:
                data = fh.read()
            cat = "peer-kind" if "/types/" in f and "/v1alpha1/" not in f else "peer-config"
            add(cat, os.path.relpath(f, os.path.dirname(shared)), data)
    # Single-document variants of the multi-document fixtures (JSON6902 needs one document).
    for cat, name, data in list(found):
        if cat == "fixture" and b"\n---\n" in data:
            add("fixture", name + "#doc0", data.split(b"\n---\n", 1)[0] + b"\n")
    found.sort(key=lambda t: t[1])
    return found


def choose_base(rng: random.Random, bases) -> tuple[str, bytes]:
    by_cat = defaultdict(list)
    for cat, name, data in bases:
        by_cat[cat].append((name, data))
    cat = rng.choices(["fixture", "hand", "peer-config", "peer-kind"], [40, 25, 22, 13])[0]
    name, data = rng.choice(by_cat[cat])
    if cat == "peer-kind" and rng.random() < 0.6:
        # A kind document after a real v1alpha1 config.
        fname, fdata = rng.choice(by_cat["fixture"])
        return f"{fname}+{name}", fdata.rstrip(b"\n") + b"\n---\n" + data
    return name, data


# ---------------------------------------------------------------------------------------------
# The mutation grammar
# ---------------------------------------------------------------------------------------------

EXTRA_ARGS_AT = [
    ["machine", "kubelet"],
    ["cluster", "apiServer"],
    ["cluster", "controllerManager"],
    ["cluster", "scheduler"],
    ["cluster", "proxy"],
    ["cluster", "etcd"],
]
ARG_KEYS = ["v", "feature-gates", "bind-address", "node-labels", "rotate-server-certificates", "profiling", "x"]


ARG_GOOD = ["2", "true", "", ["a", "b"], ["one"], [], "--flag=1", "a,b", "\nfoo", Raw("!!str 3"), Raw("'quoted'"), "x y"]
ARG_ODD = [None, {"k": "v"}, {}, 10, 1.5, True, [1, 2], [None], ["a", ["b"]], {"$patch": "delete"}]


def arg_value(rng):
    return rng.choice(ARG_GOOD) if rng.random() < 0.75 else rng.choice(ARG_ODD)


def g_extra_args(rng):
    at = rng.choice(EXTRA_ARGS_AT)
    r = rng.random()
    if r < 0.75:
        value = {rng.choice(ARG_KEYS): arg_value(rng) for _ in range(rng.randint(1, 3))}
    else:
        value = rng.choice([[], ["a=b"], "a=b", None, {}, 3, {"$patch": "delete"}, {"v": {"$patch": "delete"}}])
    return f"extraArgs {'.'.join(at)}", nest(at + ["extraArgs"], value)


def g_flannel(rng):
    cni = {"name": rng.choice(["flannel", "flannel", "custom", "none", "bogus"])}
    flannel = {}
    if rng.random() < 0.8:
        flannel["kubeNetworkPoliciesEnabled"] = rng.choice([True, False, "yes", None, 1])
    if rng.random() < 0.4:
        flannel["extraArgs"] = rng.choice([["--iface=eth0"], [], "x", [1], None])
    if flannel or rng.random() < 0.3:
        cni["flannel"] = flannel
    if rng.random() < 0.2:
        cni["urls"] = rng.choice([["https://example.com/cni.yaml"], ["not a url"], []])
    return "flannel", {"cluster": {"network": {"cni": cni}}}


def g_host_dns(rng):
    h = {}
    for key in ("enabled", "forwardKubeDNSToHost", "resolveMemberNames"):
        if rng.random() < 0.7:
            h[key] = rng.choice([True, False, True, False, None, "yes"])
    return "hostDNS", {"machine": {"features": {"hostDNS": h}}}


def g_api_access(rng):
    roles = ["os:reader", "os:admin", "os:operator", "os:etcd:backup", "os:impersonator", "os:image:verifier", "os:meta:writer", "bogus", "os:"]
    a = {}
    if rng.random() < 0.85:
        a["enabled"] = rng.choice([True, True, False])
    if rng.random() < 0.9:
        a["allowedRoles"] = rng.sample(roles, rng.randint(0, 3))
    if rng.random() < 0.6:
        a["allowedKubernetesNamespaces"] = rng.choice([["kube-system"], [], ["a", "b"], "kube-system"])
    return "kubernetesTalosAPIAccess", {"machine": {"features": {"kubernetesTalosAPIAccess": a}}}


def g_extensions(rng):
    v = rng.choice([[{"image": "ghcr.io/siderolabs/gvisor:20231214.0-v1.6.0"}], [], [{"image": ""}], "x", [{}], None])
    return "install.extensions", {"machine": {"install": {"extensions": v}}}


DURATIONS_GOOD = ["0s", "10s", "1m30s", "1h", "10ms", "-5s", "1h0m0s", "0"]
DURATIONS_ODD = [0, 10, "abc", -1, 1.5, "", None, "5", Raw("!!int 10"), 10.0, "1d"]


def duration(rng):
    return rng.choice(DURATIONS_GOOD) if rng.random() < 0.55 else rng.choice(DURATIONS_ODD)


def g_durations(rng):
    which = rng.choice(["boot", "boot", "certLifetime", "keepalive"])
    v = duration(rng)
    if which == "boot":
        return "duration machine.time.bootTimeout", {"machine": {"time": {"bootTimeout": v}}}
    if which == "certLifetime":
        return "duration adminKubeconfig.certLifetime", {"cluster": {"adminKubeconfig": {"certLifetime": v}}}
    iface = {
        "interface": "wg0",
        "wireguard": {
            "privateKey": "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopq=",
            "peers": [{"publicKey": "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopq=", "persistentKeepaliveInterval": v}],
        },
    }
    return "duration wireguard keepalive", {"machine": {"network": {"interfaces": [iface]}}}


NUMBERS = [1500, 1500.5, 1500.0, Raw("1e3"), "1500", -1, 99999999999, Raw("0x5dc"), Raw("1_500"), 0, Raw(".inf"), True, Raw("!!float 1500"), 9000, Raw("0o17"), 1500.9]


def g_numbers(rng):
    which = rng.choice(["mtu", "mtu", "kubePrism", "vlan", "diskQuota"])
    v = rng.choice(NUMBERS)
    if which == "mtu":
        return "int mtu", {"machine": {"network": {"interfaces": [{"interface": rng.choice(["eth0", "eth9"]), "mtu": v}]}}}
    if which == "kubePrism":
        return "int kubePrism.port", {"machine": {"features": {"kubePrism": {"enabled": True, "port": v}}}}
    if which == "vlan":
        return "int vlanId", {"machine": {"network": {"interfaces": [{"interface": "eth0", "vlans": [{"vlanId": v, "dhcp": True}]}]}}}
    return "int diskQuota/kubespan mtu", {"machine": {"network": {"kubespan": {"enabled": True, "mtu": v}}}}


DELETE_PATHS = [
    ["machine", "network"],
    ["machine", "kubelet"],
    ["machine", "features", "hostDNS"],
    ["machine", "install"],
    ["machine", "certSANs"],
    ["machine", "nodeLabels"],
    ["machine", "nodeLabels", "lab.talos.dev/pool"],
    ["machine", "nodeLabels", "node.kubernetes.io/exclude-from-external-load-balancers"],
    ["cluster", "apiServer"],
    ["cluster", "network", "cni"],
    ["cluster", "proxy", "extraArgs"],
    ["cluster"],
    ["machine", "missing"],
    ["machine"],
    ["cluster", "apiServer", "extraArgs", "v"],
    ["machine", "kubelet", "extraArgs"],
]


def g_delete_key(rng):
    path = rng.choice(DELETE_PATHS)
    marker = rng.choices(["delete", "replace", "bogus", "Delete"], [80, 8, 6, 6])[0]
    extra = {}
    if rng.random() < 0.15:
        extra = {"other": "x"}
    return f"$patch:{marker} at {'.'.join(path)}", nest(path, {"$patch": marker, **extra})


def g_delete_item(rng):
    which = rng.choice(["iface", "files", "manifest", "admission", "mirrors"])
    if which == "iface":
        items = [{"interface": "eth0", "$patch": "delete"}]
        if rng.random() < 0.5:
            items.append({"interface": "eth1", "addresses": ["10.3.5.5/32"]})
        return "$patch:delete list item interfaces", {"machine": {"network": {"interfaces": items}}}
    if which == "files":
        return "$patch:delete list item files", {"machine": {"files": [{"path": "/var/f", "$patch": "delete"}]}}
    if which == "manifest":
        return "$patch:delete list item inlineManifests", {"cluster": {"inlineManifests": [{"name": "x", "$patch": "delete"}]}}
    if which == "admission":
        return "$patch:delete list item admissionControl", {
            "cluster": {"apiServer": {"admissionControl": [{"name": "PodSecurity", "$patch": "delete"}]}}
        }
    return "$patch:delete list item certSANs", {"machine": {"certSANs": [{"$patch": "delete"}]}}


def g_unknown(rng):
    path = rng.choice([["machine"], ["cluster"], ["machine", "kubelet"], ["cluster", "apiServer"], ["machine", "features"], []])
    key = rng.choice(["foo", "bogus", "Type", "extraargs", "kubeNetworkPoliciesEnabled"])
    return f"unknown field {'.'.join(path + [key])}", nest(path + [key], rng.choice(["bar", 1, {"a": "b"}, [1]]))


TYPE_ERRORS = [
    (["machine", "install", "wipe"], "abc"),
    (["machine", "install", "wipe"], Raw("yes")),
    (["machine", "certSANs"], "a"),
    (["cluster", "apiServer", "certSANs"], "a"),
    (["machine", "kubelet", "image"], ["a"]),
    (["cluster", "network", "podSubnets"], "10.0.0.0/8"),
    (["machine", "type"], ["worker"]),
    (["machine", "nodeLabels"], ["a"]),
    (["machine", "sysctls"], "x"),
    (["machine", "install", "diskSelector", "size"], "not a size"),
    (["machine", "features", "rbac"], 1),
    (["debug"], "maybe"),
    (["persist"], Raw("!!str true")),
    (["machine", "env"], {"A": ["b"]}),
    (["machine", "nodeTaints"], {"a": 1}),
]


def g_type_error(rng):
    path, v = rng.choice(TYPE_ERRORS)
    return f"type error {'.'.join(path)}", nest(path, v)


NEWLINE_VALUES = ["\nfoo", "\nfoo\n", "\n\nfoo\n", "foo\n", "\n", " leading\nx", "trailing \nx", "a\n\n", "\n  indented\n", "x\tz\n"]


def nl_value(rng):
    text = rng.choice(NEWLINE_VALUES)
    if rng.random() < 0.4 and text.strip() and not text.startswith(" "):
        return Block(text, rng.choice(["|", "|-", "|+", ">"]))
    return text


def g_newline_scalars(rng):
    which = rng.choice(["files", "sysctls", "annotations", "manifest", "env", "kubeletExtraConfig"])
    v = nl_value(rng)
    if which == "files":
        f = {"content": v, "permissions": rng.choice([Raw("0o644"), 420, Raw("0644")]), "path": "/var/f", "op": rng.choice(["create", "append", "overwrite"])}
        return "newline value files.content", {"machine": {"files": [f]}}
    if which == "sysctls":
        return "newline value sysctls", {"machine": {"sysctls": {"net.core.somaxconn": v}}}
    if which == "annotations":
        return "newline value nodeAnnotations", {"machine": {"nodeAnnotations": {"example.com/a": v}}}
    if which == "manifest":
        return "newline value inlineManifests", {"cluster": {"inlineManifests": [{"name": "m", "contents": v}]}}
    if which == "env":
        return "newline value machine.env", {"machine": {"env": {"HTTP_PROXY": v}}}
    return "newline value kubelet.extraConfig", {"machine": {"kubelet": {"extraConfig": {"a": v}}}}


def g_labels(rng):
    key = rng.choice(["lab.talos.dev/pool", "team name", "a/b/c", "x" * 64, "example.com/ok", "-bad", "k"])
    value = rng.choice(["blue", "", "has space", "x" * 64, "-x", None, 5, "ok.value"])
    which = rng.choice(["nodeLabels", "nodeAnnotations", "nodeTaints"])
    if which == "nodeTaints":
        value = rng.choice(["NoSchedule", "value:NoSchedule", "bogus", ":NoExecute", ""])
    return f"labels {which}", {"machine": {which: {key: value}}}


def g_machine_type(rng):
    return "machine.type", {"machine": {"type": rng.choice(["worker", "controlplane", "init", "", "bogus", "join"])}}


K8S_TAGS = ["v1.29.0", "v1.30.0", "v1.31.2", "v1.35.4", "v1.36.3", "v1.37.0", "v2.0.0", "latest", "1.31.0"]


def g_k8s_version(rng):
    tag = rng.choice(K8S_TAGS)
    which = rng.choice(["kubelet", "apiServer", "controllerManager", "scheduler", "proxy"])
    img = {
        "kubelet": "ghcr.io/siderolabs/kubelet",
        "apiServer": "registry.k8s.io/kube-apiserver",
        "controllerManager": "registry.k8s.io/kube-controller-manager",
        "scheduler": "registry.k8s.io/kube-scheduler",
        "proxy": "registry.k8s.io/kube-proxy",
    }[which]
    path = ["machine", "kubelet"] if which == "kubelet" else ["cluster", which]
    return f"k8s version {which}", nest(path + ["image"], f"{img}:{tag}")


def g_misc(rng):
    return "misc", rng.choice(
        [
            {"machine": {"certSANs": ["10.0.0.1", "example.com"]}},
            {"cluster": {"clusterName": rng.choice(["lab", "", "Bad Name"])}},
            {"machine": {"install": {"disk": "/dev/sda", "image": "ghcr.io/siderolabs/installer:v1.12.0"}}},
            {"machine": {"registries": {"mirrors": {"docker.io": {"endpoints": ["http://10.5.0.1:5000"]}}}}},
            {"machine": {"kubelet": {"nodeIP": {"validSubnets": ["10.0.0.0/8", "!10.0.0.3/32"]}}}},
            {"cluster": {"network": {"podSubnets": ["10.244.0.0/16", "fd00::/64"]}}},
            {"machine": {"features": {"rbac": True, "stableHostname": True}}},
            {"cluster": {"proxy": {"disabled": True}}},
            {"machine": {"network": {"hostname": "node-1"}}},
            {"version": "v1alpha2"},
            {"machine": {"kubelet": {"extraMounts": [{"destination": "/var/x", "type": "bind", "source": "/var/x", "options": ["bind", "rw"]}]}}},
        ]
    )


V1ALPHA1_GENERATORS = [
    (g_extra_args, 16),
    (g_flannel, 6),
    (g_host_dns, 6),
    (g_api_access, 6),
    (g_extensions, 4),
    (g_durations, 6),
    (g_numbers, 6),
    (g_delete_key, 7),
    (g_delete_item, 4),
    (g_unknown, 4),
    (g_type_error, 5),
    (g_newline_scalars, 8),
    (g_labels, 4),
    (g_machine_type, 3),
    (g_k8s_version, 5),
    (g_misc, 4),
]

SIZES = ["10GiB", "-10GiB", "50%", "-10%", "0", "abc", "100", "1.5GiB", "", "-0%", "100%", "150%", "1TB", "-1", "10 GiB"]
FS_TYPES = ["xfs", "ext4", "swap", "swapi", "virtiofs", "vfat", "bogus", ""]


def k_link_alias(rng):
    d = {"apiVersion": "v1alpha1", "kind": "LinkAliasConfig", "name": rng.choice(["net0", "net%d", "net%s", "%d", "eth%", "a%db", "net%%", "net%d%d", "net%03d", "%"])}
    if rng.random() < 0.9:
        d["selector"] = {"match": rng.choice(['mac(link.permanent_addr) == "00:1a:2b:3c:4d:5e"', 'link.driver == "e1000"', "", "glob(", 'link.driver == "e1000" &&', "[?link]", "foo == bar", 'glob("e1000*", link.driver)'])}
    return "kind LinkAliasConfig " + d["name"], d


def provisioning(rng):
    p = {}
    if rng.random() < 0.7:
        p["diskSelector"] = {"match": rng.choice(["!system_disk", 'disk.transport == "nvme"', "bad ((", "", 'disk.symlinks.exists(s, s.startsWith("/dev"))', "has(disk)", 'b"x" == b"y"', "if(disk)", '"\\q" == ""'])}
    if rng.random() < 0.7:
        p["minSize"] = rng.choice(SIZES)
    if rng.random() < 0.7:
        p["maxSize"] = rng.choice(SIZES)
    if rng.random() < 0.2:
        p["grow"] = rng.choice([True, False])
    return p


def mount(rng, external=False):
    m = {}
    for key in (["readOnly", "virtiofs"] if external else ["disableAccessTime", "secure", "readOnly"]):
        if rng.random() < 0.5:
            if key == "virtiofs":
                m[key] = {"tag": rng.choice(["Data", ""])}
            else:
                m[key] = rng.choice([True, False, "yes"])
    return m


def k_user_volume(rng):
    d = {"apiVersion": "v1alpha1", "kind": "UserVolumeConfig", "name": rng.choice(["data", "ceph-data", "", "a" * 40, "Bad_Name", "x"])}
    if rng.random() < 0.5:
        d["volumeType"] = rng.choice(["partition", "directory", "disk", "external", "tmpfs", "bogus"])
    if rng.random() < 0.8:
        d["provisioning"] = provisioning(rng)
    if rng.random() < 0.6:
        d["filesystem"] = {"type": rng.choice(FS_TYPES)}
        if rng.random() < 0.2:
            d["filesystem"]["projectQuotaSupport"] = True
    if rng.random() < 0.4:
        d["mount"] = mount(rng)
    return "kind UserVolumeConfig", d


def k_volume(rng):
    d = {"apiVersion": "v1alpha1", "kind": "VolumeConfig", "name": rng.choice(["EPHEMERAL", "IMAGECACHE", "STATE", "META", "bogus"])}
    if rng.random() < 0.8:
        d["provisioning"] = provisioning(rng)
    if rng.random() < 0.4:
        d["mount"] = rng.choice([{"secure": True}, {"secure": False}, {"readOnly": True}, {}])
    if rng.random() < 0.15:
        d["encryption"] = {"provider": "luks2", "keys": [{"slot": 0, "nodeID": {}}]}
    return "kind VolumeConfig", d


def k_swap_raw_existing(rng):
    kind = rng.choice(["SwapVolumeConfig", "RawVolumeConfig", "ExistingVolumeConfig"])
    d = {"apiVersion": "v1alpha1", "kind": kind, "name": rng.choice(["big", "raw1", "data", ""])}
    if kind == "ExistingVolumeConfig":
        d["discovery"] = {"volumeSelector": {"match": rng.choice(['volume.partition_label == "DATA"', "", "volume.", 'glob("a", volume.name)'])}}
        if rng.random() < 0.6:
            d["mount"] = mount(rng)
    else:
        d["provisioning"] = provisioning(rng)
    return "kind " + kind, d


def k_external_volume(rng):
    d = {"apiVersion": "v1alpha1", "kind": "ExternalVolumeConfig", "name": rng.choice(["my-virtiofs-volume", "x", ""])}
    if rng.random() < 0.9:
        d["filesystemType"] = rng.choice(["virtiofs", "virtiofs", "nfs", "xfs", "bogus"])
    if rng.random() < 0.8:
        d["mount"] = mount(rng, external=True)
    return "kind ExternalVolumeConfig", d


def k_blackhole(rng):
    d = {"apiVersion": "v1alpha1", "kind": "BlackholeRouteConfig", "name": rng.choice(["169.254.1.1/32", "10.0.0.0/8", "bogus", "::/0"])}
    if rng.random() < 0.7:
        d["metric"] = rng.choice([2000, 2000.7, -1, "x", 0])
    return "kind BlackholeRouteConfig", d


def k_kubespan(rng):
    d = {"apiVersion": "v1alpha1", "kind": "KubeSpanConfig"}
    for key, vals in (
        ("enabled", [True, False]),
        ("advertiseKubernetesNetworks", [True, False]),
        ("allowDownPeerBypass", [True, False]),
        ("mtu", [1420, 1420.0, 1420.5, 0, 70000, "x"]),
        ("filters", [{"excludeAdvertisedNetworks": ["2007::/64"]}, {"excludeAdvertisedNetworks": ["bogus"]}, {}]),
    ):
        if rng.random() < 0.6:
            d[key] = rng.choice(vals)
    return "kind KubeSpanConfig", d


def k_routing_rule(rng):
    d = {"apiVersion": "v1alpha1", "kind": "RoutingRuleConfig", "name": rng.choice(["1000", "0", "bogus", "70000"])}
    for key, vals in (("src", ["10.0.0.0/8", "bad"]), ("table", ["100", 100, "main"]), ("action", ["unicast", "blackhole", "bogus"])):
        if rng.random() < 0.7:
            d[key] = rng.choice(vals)
    return "kind RoutingRuleConfig", d


def k_tcp_probe(rng):
    d = {"apiVersion": "v1alpha1", "kind": "TCPProbeConfig", "name": rng.choice(["proxy-check", ""])}
    for key, vals in (
        ("interval", ["1s", 0, "0s", 10, "abc"]),
        ("failureThreshold", [3, 0, -1, 3.5]),
        ("endpoint", ["proxy.example.com:3128", "noport", ""]),
        ("timeout", ["10s", 10, "0"]),
    ):
        if rng.random() < 0.7:
            d[key] = rng.choice(vals)
    return "kind TCPProbeConfig", d


def k_vrf(rng):
    d = {"apiVersion": "v1alpha1", "kind": "VRFConfig", "name": rng.choice(["vrf-blue", "", "x" * 20])}
    for key, vals in (("links", [["eno1", "eno5"], [], "eno1"]), ("table", ["123", 123, "main", ""]), ("up", [True, False]), ("addresses", [[{"address": "1.2.3.5/32"}], [{"address": "bad"}]])):
        if rng.random() < 0.7:
            d[key] = rng.choice(vals)
    return "kind VRFConfig", d


def k_environment(rng):
    d = {"apiVersion": "v1alpha1", "kind": "EnvironmentConfig"}
    if rng.random() < 0.9:
        d["variables"] = rng.choice([{"HTTP_PROXY": "http://proxy.example.com:8080"}, {"BAD NAME": "x"}, {"A": nl_value(rng)}, {}, {"A": 1}])
    return "kind EnvironmentConfig", d


def k_image_verification(rng):
    rules = rng.choice(
        [
            [{"image": "ghcr.io/*", "keyless": {"issuer": "https://token.actions.githubusercontent.com", "subjectRegex": "https://github.com/myorg/.*"}}],
            [{"image": "no-verifier/*", "skip": True}],
            [{"image": "deny-all/*", "deny": True}],
            [{"image": "", "skip": True, "deny": True}],
            [],
        ]
    )
    return "kind ImageVerificationConfig", {"apiVersion": "v1alpha1", "kind": "ImageVerificationConfig", "rules": rules}


def k_hostname(rng):
    d = {"apiVersion": "v1alpha1", "kind": "HostnameConfig"}
    r = rng.random()
    if r < 0.4:
        d["auto"] = rng.choice(["stable", "off", "bogus"])
    elif r < 0.8:
        d["hostname"] = rng.choice(["node-1", "", "Bad_Host"])
    else:
        d["auto"] = "stable"
        d["hostname"] = "x"
    return "kind HostnameConfig", d


def k_timesync(rng):
    d = {"apiVersion": "v1alpha1", "kind": "TimeSyncConfig", "bootTimeout": duration(rng)}
    if rng.random() < 0.5:
        d["enabled"] = rng.choice([True, False])
    return "kind TimeSyncConfig bootTimeout", d


def k_delete_doc(rng):
    kind, name = rng.choice(
        [
            ("HostnameConfig", None),
            ("LinkAliasConfig", "net0"),
            ("UserVolumeConfig", "data"),
            ("SideroLinkConfig", None),
            ("KubeSpanConfig", None),
            ("VRFConfig", "vrf-blue"),
            ("UserVolumeConfig", "missing"),
        ]
    )
    d = {"apiVersion": "v1alpha1", "kind": kind}
    if name is not None:
        d["name"] = name
    d["$patch"] = rng.choice(["delete", "delete", "delete", "replace"])
    return f"$patch:delete document {kind}", d


def k_v1alpha1_delete(rng):
    return "$patch:delete document v1alpha1", {"version": "v1alpha1", "$patch": "delete"}


KIND_GENERATORS = [
    (k_link_alias, 6),
    (k_user_volume, 7),
    (k_volume, 5),
    (k_swap_raw_existing, 4),
    (k_external_volume, 5),
    (k_blackhole, 3),
    (k_kubespan, 4),
    (k_routing_rule, 3),
    (k_tcp_probe, 4),
    (k_vrf, 3),
    (k_environment, 4),
    (k_image_verification, 3),
    (k_hostname, 2),
    (k_timesync, 2),
    (k_delete_doc, 5),
    (k_v1alpha1_delete, 1),
]


def json6902(rng):
    ops = []
    for _ in range(rng.randint(1, 3)):
        op = rng.choice(["add", "add", "remove", "replace", "replace", "test", "move", "copy", "bogus"])
        path = rng.choice(
            [
                "/machine/nodeLabels/foo",
                "/machine/certSANs/-",
                "/machine/certSANs/0",
                "/machine/network",
                "/cluster/missing/x",
                "/cluster/clusterName",
                "/machine/type",
                "/machine/kubelet/extraArgs",
                "/machine/kubelet/extraArgs/v",
                "machine/type",
                "",
                "/machine/network/interfaces/0/mtu",
                "/cluster/network/cni",
            ]
        )
        d = {"op": op, "path": path}
        if op in ("add", "replace", "test"):
            d["value"] = rng.choice(["x", "worker", ["a"], {"v": "2"}, {"v": ["a", "b"]}, 1500.5, None, {"name": "flannel", "flannel": {"kubeNetworkPoliciesEnabled": True}}])
        if op in ("move", "copy"):
            d["from"] = rng.choice(["/machine/type", "/cluster/nope"])
        ops.append(d)
    return "json6902 " + ",".join(o["op"] for o in ops), ops


# Text-level corruptions: each takes the patch text and returns new bytes.
def _lines(text: bytes) -> list[bytes]:
    return text.split(b"\n")


def c_tab(rng, t):
    ls = _lines(t)
    idx = [i for i, l in enumerate(ls) if l.startswith(b" ")]
    if not idx:
        return b"machine:\n\tnetwork: {}\n"
    i = rng.choice(idx)
    ls[i] = b"\t" + ls[i].lstrip(b" ")
    return b"\n".join(ls)


def c_insert_line(line: bytes):
    def f(rng, t):
        ls = _lines(t)
        i = rng.randint(0, max(0, len(ls) - 1))
        # top-level lines keep the document shape; insert before a top-level key or at the end
        tops = [j for j, l in enumerate(ls) if l and not l.startswith((b" ", b"-", b"\t"))]
        if tops and rng.random() < 0.7:
            i = rng.choice(tops)
        ls.insert(i, line)
        return b"\n".join(ls)

    return f


def c_value_inject(payload: bytes):
    def f(rng, t):
        ls = _lines(t)
        idx = [i for i, l in enumerate(ls) if b": " in l and not l.rstrip().endswith((b"|", b"|-", b">"))]
        if not idx:
            return t + b"\nx: a" + payload + b"b\n"
        i = rng.choice(idx)
        ls[i] = ls[i] + payload
        return b"\n".join(ls)

    return f


def c_bad_indent(rng, t):
    ls = _lines(t)
    idx = [i for i, l in enumerate(ls) if l.startswith(b" ")]
    if not idx:
        return b"machine:\n  type: worker\n   token: x\n"
    i = rng.choice(idx)
    ls[i] = (b" " if rng.random() < 0.5 else b"") + (ls[i][1:] if rng.random() < 0.5 else b" " + ls[i])
    return b"\n".join(ls)


def c_duplicate_key(rng, t):
    ls = _lines(t)
    tops = [l for l in ls if l and not l.startswith((b" ", b"-", b"#", b"\t", b"{", b"["))]
    if not tops:
        return b"machine:\n  type: worker\nmachine:\n  type: worker\n"
    return t.rstrip(b"\n") + b"\n" + rng.choice(tops) + (b"" if tops[0].endswith(b":") is False else b" {}") + b"\n"


def c_crlf(rng, t):
    return t.replace(b"\n", b"\r\n")


def c_bom(rng, t):
    return b"\xef\xbb\xbf" + t


def c_truncate(rng, t):
    return t[: rng.randint(0, len(t))] if t else t


CORRUPTIONS = [
    ("tab", c_tab, 6),
    ("unclosed quote", c_insert_line(b'x: "abc'), 3),
    ("unclosed single quote", c_insert_line(b"x: 'abc"), 2),
    ("bad indentation", c_bad_indent, 6),
    ("flow {a: 1]", c_insert_line(b"x: {a: 1]"), 3),
    ("flow [:x]", c_insert_line(b"x: [:x]"), 3),
    ("tag !x{y}", c_insert_line(b"x: !x{y}"), 3),
    ("tag !!str, b", c_insert_line(b"x: [!!str, b]"), 3),
    ("tag !!int abc", c_insert_line(b"machine: {type: !!int abc}"), 2),
    ("long key", c_insert_line(b"k" * 1100 + b": v"), 3),
    ("long quoted key", c_insert_line(b'"' + b"q" * 1030 + b'": v'), 2),
    ("ctrl \\x7f", c_value_inject(b"\x7f"), 3),
    ("ctrl \\xc2\\x80", c_value_inject(b"\xc2\x80"), 3),
    ("invalid utf-8 \\xff", c_value_inject(b"\xff"), 3),
    ("invalid utf-8 \\xc3(", c_value_inject(b"\xc3\x28"), 2),
    ("NUL", c_value_inject(b"\x00"), 1),
    ("unknown anchor", c_insert_line(b"x: *nope"), 3),
    ("anchor+alias", c_insert_line(b"machine: {nodeLabels: &l {a: b}, nodeAnnotations: *l}"), 2),
    ("duplicate key", c_duplicate_key, 4),
    ("merge key <<", c_insert_line(b"machine:\n    <<: {type: worker}"), 3),
    ("merge key !!merge a", c_insert_line(b"machine:\n    !!merge a: 1"), 2),
    ("merge key <<: *alias", c_insert_line(b"machine: &m {type: worker}\ncluster:\n    <<: *m"), 2),
    ("CRLF", c_crlf, 2),
    ("BOM", c_bom, 2),
    ("truncated", c_truncate, 3),
    ("doc end ...", c_insert_line(b"..."), 1),
    ("directive %YAML", lambda rng, t: b"%YAML 1.1\n---\n" + t, 1),
    ("trailing ]", lambda rng, t: t + b"]\n", 2),
    ("document tag", lambda rng, t: b"--- !foo\n" + t, 1),
    ("empty value key", c_insert_line(b"machine:"), 2),
]

SPECIAL_PATCHES = [
    ("empty patch", b""),
    ("comment only", b"# nothing\n"),
    ("separator only", b"---\n"),
    ("null", b"null\n"),
    ("not a document", b"it's not even a json"),
    ("scalar list", b"- a\n- b\n"),
    ("empty json list", b"[]"),
    ("empty map", b"{}\n"),
    ("two empty docs", b"---\n---\n"),
    ("kind without apiVersion", b"kind: HostnameConfig\nhostname: x\n"),
    ("unknown kind", b"apiVersion: v1alpha1\nkind: BogusConfig\nname: x\n"),
    ("bad apiVersion", b"apiVersion: v1alpha9\nkind: HostnameConfig\nhostname: x\n"),
]


@dataclasses.dataclass
class Patch:
    text: bytes
    what: list[str]
    inline: bool = False


@dataclasses.dataclass
class Case:
    index: int
    base_name: str
    base: bytes
    patches: list[Patch]
    mode: str
    strict: bool

    def size(self) -> int:
        return len(self.base) + sum(len(p.text) for p in self.patches)


def wchoice(rng, table):
    fns = [t[0] for t in table]
    weights = [t[-1] for t in table]
    return rng.choices(fns, weights)[0]


def make_patch(rng: random.Random) -> Patch:
    r = rng.random()
    what: list[str] = []
    if r < 0.05:
        name, text = rng.choice(SPECIAL_PATCHES)
        return Patch(text, [name])
    if r < 0.14:
        name, ops = json6902(rng)
        text = (emit_json(ops) if rng.random() < 0.5 else "\n".join(emit_block(ops, 0, rng, 0))) + "\n"
        return Patch(text.encode(), [name])
    docs: list = []
    v1 = None
    for _ in range(rng.choices([1, 2, 3], [65, 25, 10])[0]):
        if rng.random() < 0.7:
            name, frag = wchoice(rng, V1ALPHA1_GENERATORS)(rng)
            v1 = frag if v1 is None else deep_merge(v1, frag)
            what.append(name)
        else:
            name, doc = wchoice(rng, KIND_GENERATORS)(rng)
            docs.append(doc)
            what.append(name)
    if v1 is not None:
        if rng.random() < 0.3:
            v1 = {"version": "v1alpha1", **v1}
        pos = rng.randint(0, len(docs))
        docs.insert(pos, v1)
    parts = [emit_doc(d, rng) for d in docs]
    text = ("---\n" if rng.random() < 0.1 else "") + "---\n".join(parts)
    data = text.encode()
    if rng.random() < 0.13:
        name, fn, _ = rng.choices(CORRUPTIONS, [c[2] for c in CORRUPTIONS])[0]
        data = fn(rng, data)
        what.append("corrupt: " + name)
    return Patch(data, what)


def make_case(seed: int, index: int, bases) -> Case:
    rng = random.Random(f"differential:{seed}:{index}")
    base_name, base = choose_base(rng, bases)
    patches = [make_patch(rng) for _ in range(rng.choices([1, 2, 3], [60, 28, 12])[0])]
    for p in patches:
        # Inline (not @file) now and then: text without NUL, not empty, not ending in a newline
        # (so that run.sh can pass it back through "$(cat FILE)").
        if (
            rng.random() < 0.1
            and p.text
            and b"\x00" not in p.text
            and not p.text.startswith(b"@")
            and not p.text.endswith((b"\n", b"\r"))
        ):
            p.inline = True
    mode = rng.choice(["container", "metal", "cloud"])
    strict = rng.random() < 0.3
    return Case(index, base_name, base, patches, mode, strict)


# ---------------------------------------------------------------------------------------------
# v1.14.0-rc.1: generators for the new document kinds, fields and rules (docs/versions.md, 2b).
# Used only for --release v1.14.0-rc.1; the v1.12.11/v1.13.9 case streams never call them.
# Each generator returns (what, documents, v1alpha1 fragment or None). Every `what` name starts
# with "v1.14 " so that the coverage report can find it; names carry no random values.
# ---------------------------------------------------------------------------------------------

V14 = "v1.14.0-rc.1"
V14_PREFIX = "v1.14 "

# PEM texts, read once from the shared fixture (cluster CA, service account key).
PEMS = {"cert": "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n", "key": "-----BEGIN EC PRIVATE KEY-----\nMHcC\n-----END EC PRIVATE KEY-----\n", "sa": "-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----\n"}


def load_pems(shared: str) -> None:
    import base64

    try:
        with open(os.path.join(shared, "fixtures", "controlplane.yaml")) as f:
            text = f.read()
    except OSError:
        return
    m = re.search(r"\ncluster:\n(?:.*\n)*?    ca:\n        crt: (\S+)\n        key: (\S+)\n", text)
    if m:
        PEMS["cert"] = base64.b64decode(m.group(1)).decode()
        PEMS["key"] = base64.b64decode(m.group(2)).decode()
    m = re.search(r"\n    serviceAccount:\n        key: (\S+)\n", text)
    if m:
        PEMS["sa"] = base64.b64decode(m.group(1)).decode()


def kdoc(kind: str, **fields) -> dict:
    return {"apiVersion": "v1alpha1", "kind": kind, **fields}


def opt(rng, d: dict, key: str, values, p: float = 0.6) -> None:
    if rng.random() < p:
        d[key] = rng.choice(values)


def good(rng, p: float = 0.7) -> bool:
    return rng.random() < p


# The base of the v1.14 case being generated (set by make_case_v14; generation is single-threaded).
# `$patch: delete` of a key the base lacks fails the merge (`failed to delete path ...: lookup
# failed`), so the deletes are aimed at keys the base has, and only now and then at absent ones.
_BASE14 = {"text": b""}


def base_has(path: list[str]) -> bool:
    """Whether the v1alpha1 document of the current base (block style) has this key path."""
    lines = _BASE14["text"].decode("utf-8", "replace").split("\n")
    lo, hi, indent = 0, len(lines), -1
    for key in path:
        found = None
        child_indent = None
        for i in range(lo, hi):
            line = lines[i]
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            ind = len(line) - len(line.lstrip(" "))
            if line.startswith("---") or (ind <= indent and i > lo):
                hi = i
                break
            if child_indent is None:
                child_indent = ind
            if ind == child_indent and re.match(r"\s*" + re.escape(key) + r"\s*:", line):
                found = i
        if found is None:
            return False
        indent = child_indent
        lo = found + 1
        end = len(lines)
        for j in range(lo, len(lines)):
            l2 = lines[j]
            if l2.strip() and not l2.lstrip().startswith("#") and (len(l2) - len(l2.lstrip(" ")) <= indent or l2.startswith("---")):
                end = j
                break
        hi = end
    return True


def delete_frag(paths: list[list[str]], rng: random.Random | None = None) -> dict | None:
    """`$patch: delete` of those paths the base has (with rng: now and then one it lacks too)."""
    keep = [p for p in paths if base_has(p)]
    absent = [p for p in paths if p not in keep]
    if rng is not None and absent and rng.random() < 0.1:
        keep.append(rng.choice(absent))
    if not keep:
        return None
    v1: dict = {}
    for path in keep:
        v1 = deep_merge(v1, nest(path, {"$patch": "delete"}))
    return v1


def delete_or(rng, path: list[str], otherwise):
    """A delete of the path if the base has it, else `otherwise` (a fragment or None)."""
    return delete_frag([path], rng) or otherwise


# The v1alpha1 settings each new kind conflicts with (its V1Alpha1ConflictValidate).
CONFLICT_PATHS = {
    "KubeletConfig": [["machine", "kubelet"]],
    "KubeAPIServerConfig": [["cluster", "apiServer"]],
    "KubeClusterConfig": [["cluster", "clusterName"], ["cluster", "controlPlane"]],
    "KubeNetworkConfig": [["cluster", "network"]],
    "KubeNodeConfig": [["machine", "nodeLabels"], ["machine", "nodeAnnotations"], ["machine", "nodeTaints"], ["machine", "kubelet", "nodeIP"], ["cluster", "allowSchedulingOnControlPlanes"]],
    "KubeFlannelCNIConfig": [["cluster", "network"]],
    "KubeProxyConfig": [["cluster", "proxy"]],
    "KubeSchedulerConfig": [["cluster", "scheduler"], ["machine", "controlPlane"]],
    "KubeControllerManagerConfig": [["cluster", "controllerManager"], ["machine", "controlPlane"]],
    "KubeCoreDNSConfig": [["cluster", "coreDNS"]],
    "KubeEtcdEncryptionConfig": [["cluster", "secretboxEncryptionSecret"], ["cluster", "aescbcEncryptionSecret"]],
    "KubeServiceAccountConfig": [["cluster", "serviceAccount"]],
    "KubeAPIServerCAConfig": [["cluster", "ca"]],
    "KubeAggregatorCAConfig": [["cluster", "aggregatorCA"]],
    "KubePrismConfig": [["machine", "features", "kubePrism"]],
    "KubeTalosAPIAccessConfig": [["machine", "features", "kubernetesTalosAPIAccess"]],
    "KubeAdmissionControlConfig": [["cluster", "apiServer", "admissionControl"]],
    "KubeAuditPolicyConfig": [["cluster", "apiServer", "auditPolicy"]],
    "KubeAuthenticationConfig": [],
    "KubeAuthorizerConfig": [["cluster", "apiServer", "admissionControl"]],
    "KubeCredentialProviderConfig": [["machine", "kubelet"]],
    "KubeExternalManifestConfig": [],
    "KubeInlineManifestConfig": [],
    "KubeStaticPodConfig": [],
    "DiscoveryServiceConfig": [["cluster", "discovery"]],
    "DiscoveryIdentityConfig": [["cluster", "id"], ["cluster", "secret"]],
    "CRIBaseRuntimeSpecConfig": [["machine", "baseRuntimeSpecOverrides"]],
    "ImageCacheConfig": [["machine", "features", "imageCache"]],
    "UnattendedInstallConfig": [["machine", "install"]],
    "ResolverConfig": [["machine", "features", "hostDNS"]],
}
CP_ONLY = [
    "KubeAPIServerConfig", "KubeFlannelCNIConfig", "KubeProxyConfig", "KubeSchedulerConfig", "KubeControllerManagerConfig", "KubeCoreDNSConfig",
    "KubeEtcdEncryptionConfig", "KubeServiceAccountConfig", "KubeAggregatorCAConfig", "KubeTalosAPIAccessConfig", "KubeAdmissionControlConfig",
    "KubeAuditPolicyConfig", "KubeAuthenticationConfig", "KubeAuthorizerConfig",
]

IMG = {
    "kubelet": ["ghcr.io/siderolabs/kubelet:v1.36.0", "ghcr.io/siderolabs/kubelet:v1.37.0", "ghcr.io/siderolabs/kubelet:v1.30.0"],
    "apiserver": ["registry.k8s.io/kube-apiserver:v1.36.0", "registry.k8s.io/kube-apiserver:v1.37.0"],
    "cm": ["registry.k8s.io/kube-controller-manager:v1.36.0"],
    "scheduler": ["registry.k8s.io/kube-scheduler:v1.35.3", "registry.k8s.io/kube-scheduler:v1.37.0"],
    "proxy": ["registry.k8s.io/kube-proxy:v1.35.3"],
    "coredns": ["registry.k8s.io/coredns/coredns:v1.14.2"],
}
RESOURCES = [{"requests": {"cpu": 2, "memory": "2Gi"}}, {"limits": {"cpu": 1}}, {"requests": {"bogus": 1}}, {}]
ENVS = [{"HTTPS_PROXY": "http://proxy:8080"}, {}, {"A": "b"}]
UNSTRUCT = [{"a": "b"}, {"apiVersion": "x/v1", "kind": "Y", "items": [1, {"k": "v"}]}, {}]


def image(rng, which):
    return rng.choice(IMG[which]) if good(rng, 0.85) else rng.choice(["", "bad image::x"])


def x_kubelet(rng):
    d = kdoc("KubeletConfig", image=image(rng, "kubelet"))
    d["config"] = rng.choice([{}, {"serverTLSBootstrap": True}, {"maxPods": 250}] + ([{rng.choice(["port", "authentication", "seccompDefault", "cgroupRoot", "staticPodPath"]): 1}] if not good(rng, 0.75) else []))
    opt(rng, d, "extraArgs", [{"feature-gates": "AllBeta=true"}, {"v": ["2", "3"]}, {}], 0.4)
    opt(rng, d, "clusterDNS", [["10.96.0.10"], ["169.254.2.53", "10.96.0.10"], []], 0.4)
    opt(rng, d, "defaultRuntimeSeccompProfileEnabled", [True, False], 0.4)
    if rng.random() < 0.1:
        del d["image"]
    return d


def x_apiserver(rng):
    d = kdoc("KubeAPIServerConfig", image=image(rng, "apiserver"))
    opt(rng, d, "extraArgs", [{"feature-gates": "ServerSideApply=true"}, {"anonymous-auth": "false"}, {"oidc-issuer-url": "https://x"}, {"authorization-mode": "Node,RBAC"}, {"authentication-config": "/x"}, {"authorization-webhook-version": "v1"}, {"v": "2"}], 0.6)
    opt(rng, d, "env", ENVS, 0.3)
    opt(rng, d, "resources", RESOURCES, 0.3)
    opt(rng, d, "apiPort", [8443, 6443, 0, 70000], 0.4)
    opt(rng, d, "certExtraSANs", [["k8s.example.com"], []], 0.3)
    opt(rng, d, "startupProbes", [True, False], 0.2)
    return d


def x_cluster(rng):
    d = kdoc("KubeClusterConfig")
    d["clusterName"] = rng.choice(["example-cluster", "lab"]) if good(rng, 0.8) else ""
    d["endpoint"] = rng.choice(["https://example.com:6443/", "https://10.5.0.2:6443"]) if good(rng, 0.6) else rng.choice(["", "not a url", "://x", "example.com:6443", "https://"])
    return d


def x_network(rng):
    d = kdoc("KubeNetworkConfig", dnsDomain=rng.choice(["cluster.local", "cluster.local", ""]))
    d["podSubnets"] = rng.choice([["10.244.0.0/16"], ["10.244.0.0/16", "fd00:10:244::/56"]]) if good(rng) else rng.choice(
        [[], ["bogus"], ["10.244.0.0/30"], ["10.0.0.0/4"], ["10.244.0.0/16", "10.245.0.0/16"], ["10.244.0.0/16", "fd00::/56", "10.1.0.0/16"]]
    )
    d["serviceSubnets"] = rng.choice([["10.96.0.0/12"], ["10.96.0.0/12", "fd00:10:96::/112"]]) if good(rng) else rng.choice([[], ["10.96.0.0/33"], ["10.0.0.0/4"]])
    opt(rng, d, "nodeCIDRMaskSizeIPv4", [24, 24, 0, 33, 8], 0.3)
    opt(rng, d, "nodeCIDRMaskSizeIPv6", [64, 129], 0.2)
    return d


def x_node(rng):
    d = kdoc("KubeNodeConfig")
    opt(rng, d, "skipNodeRegistration", [True, False], 0.2)
    opt(rng, d, "registerWithFQDN", [True, False], 0.3)
    d["nodeIP"] = rng.choice([{}, {"validSubnets": ["10.0.0.0/8", "!10.0.0.3/32"]}, {"validSubnets": ["bogus"]}]) if rng.random() < 0.6 else {}
    opt(rng, d, "labels", [{"examplelabel": "examplevalue"}, {"-bad": "x"}, {"a": "x" * 70}], 0.5)
    opt(rng, d, "annotations", [{"customer.io/rack": "r13a25"}, {"bad key": "x"}], 0.3)
    opt(rng, d, "taints", [{"exampletaint": "examplevalue:NoSchedule"}, {"t": "v:Bogus"}], 0.3)
    return d


def x_flannel(rng):
    d = kdoc("KubeFlannelCNIConfig", backendType=rng.choice(["vxlan", "vxlan", "host-gw", "wireguard", ""]))
    opt(rng, d, "backendPort", [4789, 8472, 70000], 0.4)
    opt(rng, d, "backendMTU", [1420, 0], 0.3)
    opt(rng, d, "backendExtraConfig", [{"VNI": 2}, {}], 0.2)
    opt(rng, d, "extraArgs", [["--iface-can-reach=10.0.0.1"], []], 0.3)
    opt(rng, d, "kubeNetworkPoliciesEnabled", [True, False], 0.3)
    return d


def x_proxy(rng):
    d = kdoc("KubeProxyConfig")
    opt(rng, d, "enabled", [True, True, False], 0.6)
    opt(rng, d, "image", IMG["proxy"] + [""], 0.7)
    opt(rng, d, "mode", ["nftables", "iptables", "ipvs", "bogus", ""], 0.6)
    d["config"] = rng.choice([{}, {"bindAddressHardFail": True}])
    opt(rng, d, "extraArgs", [{"proxy-mode": "nftables"}, {}], 0.3)
    opt(rng, d, "resources", RESOURCES, 0.2)
    return d


def x_scheduler(rng):
    d = kdoc("KubeSchedulerConfig")
    opt(rng, d, "enabled", [True, True, False], 0.5)
    d["image"] = image(rng, "scheduler")
    d["config"] = rng.choice([{}, {"profiles": []}])
    opt(rng, d, "extraArgs", [{"feature-gates": "AllBeta=true"}], 0.3)
    opt(rng, d, "env", ENVS, 0.2)
    opt(rng, d, "resources", RESOURCES, 0.2)
    return d


def x_cm(rng):
    d = kdoc("KubeControllerManagerConfig")
    opt(rng, d, "enabled", [True, True, False], 0.5)
    d["image"] = image(rng, "cm")
    opt(rng, d, "extraArgs", [{"feature-gates": "AllBeta=true"}], 0.3)
    opt(rng, d, "env", ENVS, 0.2)
    opt(rng, d, "resources", RESOURCES, 0.2)
    return d


def x_coredns(rng):
    d = kdoc("KubeCoreDNSConfig")
    opt(rng, d, "enabled", [True, False], 0.7)
    opt(rng, d, "image", IMG["coredns"] + [""], 0.6)
    return d


def x_etcd_encryption(rng):
    cfg = rng.choice(
        [
            {"resources": [{"resources": ["secrets"], "providers": [{"secretbox": {"keys": [{"name": "key2", "secret": "RcqnfTtntkYpUD5JoyQXIQmnqobplcReLzyCnVisKs4="}]}}, {"identity": {}}]}]},
            {"resources": [{"providers": [{"aescbc": {"keys": [{"name": "key2", "secret": "w="}]}}, {"identity": {}}], "resources": ["secrets"]}]},
            {"resources": [{"resources": ["secrets"], "providers": [{"identity": {}}]}]},
        ]
    ) if good(rng, 0.8) else {}
    return kdoc("KubeEtcdEncryptionConfig", config=cfg)


def x_service_account(rng):
    issuer = {"privateKey": PEMS["sa"] if good(rng, 0.75) else rng.choice(["", "PRIVATE-KEY"]), "issuerURL": "https://my-control-plane:6443" if good(rng, 0.8) else ""}
    d = kdoc("KubeServiceAccountConfig", issuer=issuer)
    opt(rng, d, "accepted", [{"publicKeys": ["PUBLIC-KEY-1"], "issuers": ["https://another:6443"], "audiences": ["https://my-control-plane:6443"]}, {}], 0.3)
    return d


def ca_doc(rng, kind):
    d = kdoc(kind)
    r = rng.random()
    if r < 0.55:
        d["issuingCA"] = {"cert": PEMS["cert"], "key": PEMS["key"]}
    elif r < 0.85:
        d["issuingCA"] = rng.choice([{"cert": PEMS["cert"]}, {"key": PEMS["key"]}, {"cert": "not a pem", "key": PEMS["key"]}, {"cert": PEMS["key"], "key": PEMS["key"]}, {"cert": "-----BEGIN CERTIFICATE-----\nMIIC\n-----END CERTIFICATE-----\n", "key": PEMS["key"]}, {}])
    if rng.random() < 0.45:
        d["acceptedCAs"] = rng.choice([[PEMS["cert"]], ["garbage"], [PEMS["cert"], PEMS["key"]], []])
    return d


def x_apiserver_ca(rng):
    return ca_doc(rng, "KubeAPIServerCAConfig")


def x_aggregator_ca(rng):
    return ca_doc(rng, "KubeAggregatorCAConfig")


def x_kubeprism(rng):
    d = kdoc("KubePrismConfig", port=rng.choice([7445, 7445, 7446]) if good(rng, 0.75) else rng.choice([0, 70000, -1]))
    opt(rng, d, "tlsServerName", ["api.cluster.local"], 0.3)
    return d


def x_talos_api(rng):
    d = kdoc("KubeTalosAPIAccessConfig")
    opt(rng, d, "allowedRoles", [["os:reader"], ["os:reader", "os:etcd:backup"], ["bogus"], []], 0.8)
    opt(rng, d, "allowedKubernetesNamespaces", [["kube-system"], []], 0.5)
    return d


def x_admission(rng):
    d = kdoc("KubeAdmissionControlConfig", name=rng.choice(["PodSecurity", "PodSecurity", "EventRateLimit"]) if good(rng, 0.85) else "")
    d["configuration"] = rng.choice([{"apiVersion": "pod-security.admission.config.k8s.io/v1alpha1", "kind": "PodSecurityConfiguration", "defaults": {"enforce": "baseline"}}, {}])
    return d


def x_audit(rng):
    return kdoc("KubeAuditPolicyConfig", configuration=rng.choice([{"apiVersion": "audit.k8s.io/v1", "kind": "Policy", "rules": [{"level": "Metadata"}]}, {}]))


def x_authn(rng):
    return kdoc("KubeAuthenticationConfig", configuration=rng.choice([{"apiVersion": "apiserver.config.k8s.io/v1beta1", "kind": "AuthenticationConfiguration", "jwt": [{"issuer": {"url": "https://example.com", "audiences": ["my-app"]}}]}, {}]))


def x_authz(rng):
    t = rng.choice(["Webhook", "Node", "RBAC"]) if good(rng, 0.75) else rng.choice(["", "bogus", "webhook"])
    d = kdoc("KubeAuthorizerConfig", name=rng.choice(["webhook", "node", "rbac"]) if good(rng, 0.85) else "", type=t)
    if (t == "Webhook") == good(rng, 0.8):
        d["webhook"] = {"failurePolicy": "NoOpinion", "subjectAccessReviewVersion": "v1", "timeout": "3s"}
    return d


def x_credential_provider(rng):
    return kdoc("KubeCredentialProviderConfig", configuration=rng.choice([{"apiVersion": "kubelet.config.k8s.io/v1", "kind": "CredentialProviderConfig", "providers": [{"name": "ecr-credential-provider", "matchImages": ["*.dkr.ecr.*.amazonaws.com"], "defaultCacheDuration": "12h", "apiVersion": "credentialprovider.kubelet.k8s.io/v1"}]}, {}]))


def manifest_name(rng):
    return rng.choice(["example-cni", "namespace-ci", "nginx"]) if good(rng, 0.8) else rng.choice(["", "Bad_Name", "-x"])


def x_external_manifest(rng):
    d = kdoc("KubeExternalManifestConfig", name=manifest_name(rng))
    opt(rng, d, "headers", [{"Authorization": "Bearer token"}], 0.3)
    d["url"] = "https://www.example.com/manifest1.yaml" if good(rng, 0.75) else rng.choice(["", "ftp://x/y.yaml", "not a url", "/local"])
    return d


def x_inline_manifest(rng):
    return kdoc("KubeInlineManifestConfig", name=manifest_name(rng), manifest=rng.choice([Block("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ci\n", "|-"), "", "x: 1"]))


def x_static_pod(rng):
    pod = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "nginx"}, "spec": {"containers": [{"name": "nginx", "image": "nginx"}]}}
    return kdoc("KubeStaticPodConfig", name=manifest_name(rng), pod=pod if good(rng, 0.8) else {})


K8S_KINDS = [
    ("KubeletConfig", x_kubelet, 8), ("KubeAPIServerConfig", x_apiserver, 5), ("KubeClusterConfig", x_cluster, 5), ("KubeNetworkConfig", x_network, 6),
    ("KubeNodeConfig", x_node, 5), ("KubeFlannelCNIConfig", x_flannel, 4), ("KubeProxyConfig", x_proxy, 4), ("KubeSchedulerConfig", x_scheduler, 4),
    ("KubeControllerManagerConfig", x_cm, 4), ("KubeCoreDNSConfig", x_coredns, 3), ("KubeEtcdEncryptionConfig", x_etcd_encryption, 4),
    ("KubeServiceAccountConfig", x_service_account, 4), ("KubeAPIServerCAConfig", x_apiserver_ca, 5), ("KubeAggregatorCAConfig", x_aggregator_ca, 4),
    ("KubePrismConfig", x_kubeprism, 4), ("KubeTalosAPIAccessConfig", x_talos_api, 3), ("KubeAdmissionControlConfig", x_admission, 3),
    ("KubeAuditPolicyConfig", x_audit, 3), ("KubeAuthenticationConfig", x_authn, 2), ("KubeAuthorizerConfig", x_authz, 4),
    ("KubeCredentialProviderConfig", x_credential_provider, 3), ("KubeExternalManifestConfig", x_external_manifest, 3),
    ("KubeInlineManifestConfig", x_inline_manifest, 3), ("KubeStaticPodConfig", x_static_pod, 3),
]


def durations14(rng, good_values, bad_values):
    return rng.choice(good_values) if good(rng) else rng.choice(bad_values)


def x_trim(rng):
    d = kdoc("FilesystemTrimConfig")
    opt(rng, d, "interval", ["168h0m0s", "1h", "0s", "-1s", "abc"], 0.7)
    return d


def x_scrub(rng):
    d = kdoc("FilesystemScrubConfig")
    opt(rng, d, "interval", ["168h0m0s", "10s", "5s", "1s", "abc"], 0.7)
    return d


def x_discovery_service(rng):
    d = kdoc("DiscoveryServiceConfig", name=rng.choice(["primary", "default", "secondary"]) if good(rng, 0.85) else "")
    d["endpoint"] = rng.choice(["https://discovery.talos.dev/", "grpc://discovery-grpc.talos.dev:6443"]) if good(rng) else rng.choice(["", "", "discovery.talos.dev", "ftp://x", "https://", "https://", "://x"])
    return d


def x_discovery_identity(rng):
    d = kdoc("DiscoveryIdentityConfig")
    d["clusterID"] = "MDEyMzQ1Njc4OTAxMjM0NTY3ODkwMTIzNDU2Nzg5MDE=" if good(rng, 0.85) else ""
    d["clusterSecret"] = "vlf2HU1NEZL3Ezi9Tk+RZBLJUbjnsHnTzs3wK9JNk6Q=" if good(rng) else rng.choice(["", "not base64!", "c2hvcnQ="])
    return d


def x_container(rng):
    d = kdoc("ContainerConfig", name=rng.choice(["web", "sidecar"]) if good(rng, 0.85) else rng.choice(["", "Bad_Name", "x" * 70]))
    d["image"] = rng.choice(["docker.io/library/nginx:1.27", "ghcr.io/example/app@sha256:" + "a" * 64]) if good(rng, 0.8) else rng.choice(["", "Bad Image::"])
    opt(rng, d, "args", [["--port", "8080"]], 0.3)
    opt(rng, d, "environment", [["A=b"], ["NOEQUALS"]], 0.3)
    opt(rng, d, "runAs", [{"uid": 1000, "gid": 1000}], 0.2)
    opt(rng, d, "mounts", [[{"hostPath": {"source": "/var/lib/x", "destination": "/data"}}], [{"tmpfs": {"destination": "/tmp"}}], [{"hostPath": {"source": "rel", "destination": "/d"}, "tmpfs": {"destination": "/d"}}], [{}]], 0.35)
    opt(rng, d, "network", [{"mode": "host"}, {"mode": "bogus"}], 0.2)
    opt(rng, d, "dependsOn", [{"containers": ["sidecar"]}, {"containers": ["web"]}, {"containers": ["missing"]}], 0.3)
    return d


def x_cri_base(rng):
    return kdoc("CRIBaseRuntimeSpecConfig", overrides=rng.choice([{"process": {"rlimits": [{"type": "RLIMIT_NOFILE", "hard": 1024, "soft": 1024}]}}, {"process": "bad"}, {}]))


def x_cri_custom(rng):
    return kdoc("CRICustomizationConfig", name=rng.choice(["enable-metrics", "enable-metrics", "customization", "", "Bad Name"]), content=Block('[metrics]\n  address = "0.0.0.0:11234"\n'))


def x_image_cache(rng):
    d = kdoc("ImageCacheConfig")
    d["local"] = rng.choice([{"enabled": True}, {"enabled": False}, {}])
    return d


def x_bgp(rng):
    d = kdoc("BGPInstanceConfig", name=rng.choice(["fabric", "workload"]) if good(rng, 0.85) else "")
    d["localASN"] = 65001 if good(rng, 0.85) else 0
    opt(rng, d, "routerID", ["10.0.0.1", "fd00::1"], 0.5)
    opt(rng, d, "advertise", [["dummy0"]], 0.3)
    opt(rng, d, "multipath", [True], 0.2)
    opt(rng, d, "importRoutes", [[{"bgpInstance": "workload", "prefixes": ["198.51.100.0/24"]}], [{"bgpInstance": "", "prefixes": []}], [{"bgpInstance": "fabric", "prefixes": ["198.51.100.1/24"]}]], 0.3)
    opt(rng, d, "neighbors", [[{"address": "10.5.0.1", "peerASN": 65000, "holdTime": "9s"}], [{"link": "enp0s1", "peerASN": 65000, "bfd": {"transmitInterval": "300ms", "receiveInterval": "300ms", "detectMultiplier": 3}}], [{"address": "10.5.0.1", "link": "enp0s1"}], [{"address": "10.5.0.1"}, {"address": "10.5.0.1"}], [{"address": "10.5.0.1", "holdTime": "-1s"}]], 0.7)
    return d


def x_http_probe(rng):
    d = kdoc("HTTPProbeConfig", name=rng.choice(["http-check"]) if good(rng, 0.85) else "")
    opt(rng, d, "interval", ["1s", "0s"], 0.5)
    opt(rng, d, "failureThreshold", [3, 0], 0.4)
    d["url"] = "https://example.com" if good(rng) else rng.choice(["", "ftp://example.com", "http://", "example.com/x"])
    opt(rng, d, "timeout", ["10s", "-1s"], 0.5)
    return d


VETH_NAMES = ["veth0", "veth1", "eth0", "", "averyveryverylongname", ".", "a/b", "a b"]


def x_veth(rng):
    name = "veth0" if good(rng, 0.8) else rng.choice(VETH_NAMES)
    peer = "veth1" if good(rng, 0.8) else rng.choice(VETH_NAMES)
    d = kdoc("VethConfig", name=name, peer={"name": peer})
    opt(rng, d, "up", [True], 0.4)
    opt(rng, d, "mtu", [1500], 0.3)
    opt(rng, d, "addresses", [[{"address": "fda1::1/127"}]], 0.3)
    return d


def x_etc_file(rng):
    d = kdoc("EtcFileConfig", name=rng.choice(["nfsmount.conf", "nfsmount.conf", "my/app.conf"]) if good(rng) else rng.choice(["", "/etc/x", "hosts", "resolv.conf", "../x", "cri/conf.d/x"]))
    opt(rng, d, "mode", [Raw("0o644"), Raw("0600"), 420, Raw("0o0")], 0.7)
    d["contents"] = rng.choice([Block("[NFSMount_Global_Options]\n"), "x", ""])
    return d


def x_kernel_module(rng):
    d = kdoc("KernelModuleConfig", name="btrfs" if good(rng, 0.85) else "")
    opt(rng, d, "parameters", [["param1"], []], 0.4)
    return d


def x_security_profile(rng):
    d = kdoc("SecurityProfileConfig")
    opt(rng, d, "workloadIsolation", [True, False], 0.8)
    return d


def x_sysctl(rng):
    return kdoc("SysctlConfig", params=rng.choice([{"net.ipv4.ip_forward": "1"}, {"net.ipv4.ip_forward": "1", "vm.swappiness": "10"}, {"": "1"}, {}]))


def x_sysfs(rng):
    return kdoc("SysfsConfig", params=rng.choice([{"devices.system.cpu.cpu0.cpufreq.scaling_governor": "performance"}, {"": "x"}, {}]))


def x_udev(rng):
    d = kdoc("UdevRulesConfig")
    opt(rng, d, "rules", [['SUBSYSTEM=="drm", KERNEL=="renderD*", GROUP="44", MODE="0660"'], []], 0.8)
    return d


def x_unattended(rng):
    d = kdoc("UnattendedInstallConfig")
    opt(rng, d, "reboot", [True, False], 0.3)
    d["installer"] = rng.choice([{"image": "factory.talos.dev/metal-installer/376567988ad370138ad8b2698212367b8edcb69b5fd68c80be1f2ec7d603b4ba:v1.14.0-rc.1"}, {}])
    match = rng.choice(['disk.transport == "nvme"', 'disk.dev_path == "/dev/sda"']) if good(rng) else rng.choice(["", "bad ((", 'volume.name == "x"', 'disk.`dev_path` == "/dev/sda"'])
    d["provisioning"] = {"diskSelector": {"match": match}} if match or rng.random() < 0.5 else {}
    opt(rng, d["provisioning"], "wipe", [True, False], 0.4)
    return d


def storage_name(rng, maxlen):
    return rng.choice(["vg-pool", "data", "lv_data"]) if good(rng, 0.8) else rng.choice(["", "x" * (maxlen + 1), "bad name", "a.b"])


def x_lvm_vg(rng):
    match = rng.choice(['volume.partition_label == "DATA"', 'volume.name == "sdb"']) if good(rng) else rng.choice(["", 'disk.transport == "nvme"', "bad (("])
    return kdoc("LVMVolumeGroupConfig", name=storage_name(rng, 63), provisioning={"volumeSelector": {"match": match}} if match or rng.random() < 0.5 else {})


def x_lvm_lv(rng):
    t = rng.choice(["linear", "raid1", "raid0", "raid10"]) if good(rng, 0.85) else rng.choice(["bogus", ""])
    d = kdoc("LVMLogicalVolumeConfig", name=storage_name(rng, 63), type=t)
    opt(rng, d, "mirrors", [1, 2, 0], 0.4)
    opt(rng, d, "stripes", [2, 3, 1], 0.4)
    p = {"volumeGroup": "vg-pool" if good(rng, 0.85) else ""}
    opt(rng, p, "minSize", ["10GiB", "-1GiB", "100GiB"], 0.4)
    if good(rng, 0.8):
        p["maxSize"] = rng.choice(["50GiB", "50%", "-10GiB"])
    d["provisioning"] = p
    return d


def x_raid(rng):
    d = kdoc("RAIDArrayConfig", name=storage_name(rng, 32), level="raid1" if good(rng, 0.85) else rng.choice(["raid5", ""]))
    opt(rng, d, "metadata", ["1.2", "1.0", "bogus"], 0.3)
    match = rng.choice(['volume.partition_label == "DATA"']) if good(rng) else rng.choice(["", 'disk.transport == "virtio"'])
    d["provisioning"] = {"volumeSelector": {"match": match}}
    return d


def x_resolver(rng):
    d = kdoc("ResolverConfig")
    if rng.random() < 0.75:
        ns = []
        for _ in range(rng.randint(1, 2)):
            n = {"address": rng.choice(["10.0.0.1", "1.1.1.1"]) if good(rng, 0.85) else rng.choice(["", "bogus"])}
            proto = rng.choice(["DoT", "DoH", "Do53", "dot", "doh", None, None]) if good(rng, 0.93) else "bogus"
            if proto is not None:
                n["protocol"] = proto
            if rng.random() < 0.6:
                n["tlsServerName"] = "one.one.one.one"
            ns.append(n)
        d["nameservers"] = ns
    if rng.random() < 0.6:
        h = {}
        for key in ("enabled", "forwardKubeDNSToHost", "resolveMemberNames"):
            opt(rng, h, key, [True, True, False], 0.7)
        d["hostDNS"] = h
    return d


def x_timesync(rng):
    return kdoc("TimeSyncConfig", ntp={"servers": rng.choice([["time.cloudflare.com"], ["1.2.3.4"], ["time.cloudflare.com", "10.0.0.1"]]), "useNTS": rng.choice([True, True, False])})


def x_dhcp4(rng):
    return kdoc("DHCPv4Config", name=rng.choice(["eth0", "enp0s3"]), ignoreRoutes=rng.choice([True, False]))


def trim_scrub(rng, d):
    opt(rng, d, "trim", [{"enabled": True, "interval": "168h"}, {"enabled": False}, {"interval": "-1s"}, {}], 0.35)
    opt(rng, d, "scrub", [{"enabled": True, "interval": "168h"}, {"interval": "5s"}, {"enabled": False}], 0.35)


def encryption14(rng):
    return {"provider": "luks2", "keys": [{"slot": 0, "nodeID": {}}], "allowDiscards": rng.choice([True, False])}


def x_volume14(rng):
    d = kdoc("VolumeConfig", name=rng.choice(["EPHEMERAL", "ETCD", "CRI", "KUBELET", "LOG", "STATE", "IMAGECACHE"]))
    if rng.random() < 0.4:
        d["provisioning"] = {"diskSelector": {"match": "!system_disk"}, "minSize": "10GiB"}
    opt(rng, d, "filesystem", [{"xfs": {"minAllocationGroupSize": "128GiB"}}, {"xfs": {}}], 0.35)
    opt(rng, d, "mount", [{"disableAccessTime": True}, {"secure": True}, {"disableAccessTime": False, "secure": False}], 0.4)
    if rng.random() < 0.2:
        d["encryption"] = encryption14(rng)
    trim_scrub(rng, d)
    return d


def x_user_volume14(rng):
    d = kdoc("UserVolumeConfig", name=rng.choice(["data", "build-cache"]))
    opt(rng, d, "volumeType", ["partition", "directory", "disk"], 0.3)
    d["provisioning"] = {"diskSelector": {"match": "!system_disk"}, "minSize": "10GiB"}
    fs = rng.choice([{"type": "xfs", "xfs": {"minAllocationGroupSize": "128GiB"}}, {"type": "btrfs"}, {"type": "ext4", "xfs": {"minAllocationGroupSize": "1GiB"}}, {"xfs": {}}, {"type": "xfs"}])
    if rng.random() < 0.7:
        d["filesystem"] = fs
    opt(rng, d, "mount", [{"disableAccessTime": True}], 0.2)
    if rng.random() < 0.2:
        d["encryption"] = encryption14(rng)
    trim_scrub(rng, d)
    return d


def x_raw_volume14(rng):
    return kdoc("RawVolumeConfig", name="raw1", provisioning={"diskSelector": {"match": "!system_disk"}, "maxSize": "10GiB"}, encryption=encryption14(rng))


OTHER_KINDS = [
    ("FilesystemTrimConfig", x_trim, 3), ("FilesystemScrubConfig", x_scrub, 3), ("DiscoveryServiceConfig", x_discovery_service, 4),
    ("DiscoveryIdentityConfig", x_discovery_identity, 4), ("ContainerConfig", x_container, 5), ("CRIBaseRuntimeSpecConfig", x_cri_base, 3),
    ("CRICustomizationConfig", x_cri_custom, 3), ("ImageCacheConfig", x_image_cache, 3), ("BGPInstanceConfig", x_bgp, 4),
    ("HTTPProbeConfig", x_http_probe, 3), ("VethConfig", x_veth, 4), ("EtcFileConfig", x_etc_file, 4), ("KernelModuleConfig", x_kernel_module, 2),
    ("SecurityProfileConfig", x_security_profile, 2), ("SysctlConfig", x_sysctl, 3), ("SysfsConfig", x_sysfs, 2), ("UdevRulesConfig", x_udev, 2),
    ("UnattendedInstallConfig", x_unattended, 4), ("LVMVolumeGroupConfig", x_lvm_vg, 3), ("LVMLogicalVolumeConfig", x_lvm_lv, 4),
    ("RAIDArrayConfig", x_raid, 3),
]
NEW_FIELDS = [
    ("ResolverConfig", x_resolver, 6), ("TimeSyncConfig", x_timesync, 2), ("DHCPv4Config", x_dhcp4, 2),
    ("VolumeConfig", x_volume14, 4), ("UserVolumeConfig", x_user_volume14, 4), ("RawVolumeConfig", x_raw_volume14, 1),
]


def g14_kind(rng, table, label):
    """A new kind (or a new field): the document alone (hitting the base's v1alpha1 settings), or with
    `$patch: delete` of the v1alpha1 sections it conflicts with (so the document is validated clean)."""
    kind, fn, _ = rng.choices(table, [t[2] for t in table])[0]
    doc = fn(rng)
    paths = CONFLICT_PATHS.get(kind, [])
    frag = delete_frag(paths, rng) if paths and rng.random() < 0.45 else None
    if frag is not None:
        return f"{V14_PREFIX}{label} {kind} + delete v1alpha1", [doc], frag
    return f"{V14_PREFIX}{label} {kind}", [doc], None


def g14_k8s(rng):
    return g14_kind(rng, K8S_KINDS, "kind")


def g14_other(rng):
    return g14_kind(rng, OTHER_KINDS, "kind")


def g14_fields(rng):
    return g14_kind(rng, NEW_FIELDS, "field")


def g14_repeat(rng):
    """One patch repeating a kind and name: merged in order in v1.14 (refused by v1.13)."""
    which = rng.choice(["mirror", "kubelet", "uservolume", "sysctl", "node", "discovery"])
    if which == "mirror":
        a = kdoc("RegistryMirrorConfig", name="registry.k8s.io", endpoints=[{"url": "https://m1.example.com"}])
        b = kdoc("RegistryMirrorConfig", name="registry.k8s.io", endpoints=[{"url": "https://m2.example.com"}], skipFallback=True)
    elif which == "kubelet":
        a, b = x_kubelet(rng), kdoc("KubeletConfig", clusterDNS=["10.96.0.10"], config={"maxPods": 100})
    elif which == "uservolume":
        a, b = x_user_volume14(rng), kdoc("UserVolumeConfig", name="data", provisioning={"maxSize": "20GiB"})
        a["name"] = "data"
    elif which == "sysctl":
        a, b = x_sysctl(rng), kdoc("SysctlConfig", params={"vm.swappiness": "10"})
    elif which == "node":
        a, b = kdoc("KubeNodeConfig", labels={"a": "1"}, nodeIP={}), kdoc("KubeNodeConfig", labels={"b": "2"}, nodeIP={})
    else:
        a, b = kdoc("DiscoveryServiceConfig", name="primary", endpoint="https://discovery.talos.dev/"), kdoc("DiscoveryServiceConfig", name="primary", endpoint="grpc://d.example.com:6443")
    docs = [a, b] + ([kdoc(a["kind"], **{k: v for k, v in b.items() if k not in ("apiVersion", "kind")})] if rng.random() < 0.2 else [])
    return f"{V14_PREFIX}patcher repeat kind+name {a['kind']}", docs, None


def g14_two_v1alpha1(rng):
    first = rng.choice([{"machine": {"nodeLabels": {"a": "1"}}}, {"machine": {"kubelet": {"extraArgs": {"v": "2"}}}}, {"cluster": {"clusterName": "one"}}])
    second = rng.choice([{"machine": {"nodeLabels": {"b": "2"}}}, {"machine": {"kubelet": {"extraArgs": {"v": "3"}}}}, {"cluster": {"clusterName": "two"}}, {"machine": {"nodeLabels": {"$patch": "delete"}}}])
    if rng.random() < 0.5:
        first = {"version": "v1alpha1", **first}
    return f"{V14_PREFIX}patcher two v1alpha1 documents", [first, second], None


def g14_delete_absent(rng):
    kind, name = rng.choice([("KubeletConfig", None), ("DiscoveryServiceConfig", "missing"), ("VethConfig", "veth9"), ("SysctlConfig", None), ("ContainerConfig", "nope"), ("KubeNodeConfig", None), ("UserVolumeConfig", "missing")])
    d = kdoc(kind)
    if name:
        d["name"] = name
    d["$patch"] = "delete"
    return f"{V14_PREFIX}patcher $patch:delete absent {kind}", [d], None


def g14_link_claims(rng):
    other_kind = rng.choice(["LinkConfig", "DummyLinkConfig", "VethConfig", "BondConfig"])
    veth = kdoc("VethConfig", name="veth0", peer={"name": rng.choice(["eth0", "veth1"])})
    if other_kind == "LinkConfig":
        other = kdoc("LinkConfig", name=rng.choice(["eth0", "veth0"]), mtu=1500)
    elif other_kind == "DummyLinkConfig":
        other = kdoc("DummyLinkConfig", name=rng.choice(["eth0", "dummy0"]))
    elif other_kind == "BondConfig":
        other = kdoc("BondConfig", name="eth0", links=["eth1", "eth2"], bondMode="active-backup")
    else:
        other = kdoc("VethConfig", name=rng.choice(["eth0", "veth1"]), peer={"name": rng.choice(["veth0", "veth2"])})
    docs = [veth, other] if rng.random() < 0.6 else [other, veth]
    return f"{V14_PREFIX}patcher link name claims VethConfig+{other_kind}", docs, None


def g14_hostdns(rng):
    """Host DNS in container mode (the mode is forced to container for these cases)."""
    r = rng.random()
    if r < 0.4:
        return f"{V14_PREFIX}rule container hostDNS: delete features.hostDNS", [], delete_or(rng, ["machine", "features", "hostDNS"], None)
    if r < 0.6:
        h = {k: rng.choice([True, False]) for k in ("enabled", "forwardKubeDNSToHost")}
        return f"{V14_PREFIX}rule container hostDNS: features.hostDNS values", [], {"machine": {"features": {"hostDNS": h}}}
    res = x_resolver(rng)
    res["hostDNS"] = {k: rng.choice([True, True, False]) for k in ("enabled", "forwardKubeDNSToHost")}
    return f"{V14_PREFIX}rule container hostDNS: ResolverConfig hostDNS + delete features.hostDNS", [res], delete_or(rng, ["machine", "features", "hostDNS"], None)


def g14_kubespan_nodisco(rng):
    nodisco = delete_or(rng, ["cluster", "discovery"], None) if rng.random() < 0.6 else {"cluster": {"discovery": {"enabled": False}}}
    if rng.random() < 0.5:
        return f"{V14_PREFIX}rule KubeSpan without discovery: KubeSpanConfig", [kdoc("KubeSpanConfig", enabled=True)], nodisco
    return f"{V14_PREFIX}rule KubeSpan without discovery: v1alpha1", [], deep_merge({"machine": {"network": {"kubespan": {"enabled": True}}}}, nodisco or {})


def g14_disco_noidentity(rng):
    v1 = delete_frag([["cluster", "discovery"], ["cluster", "id"], ["cluster", "secret"]] if rng.random() < 0.8 else [["cluster", "id"], ["cluster", "secret"]], rng)
    docs = [x_discovery_service(rng)]
    if rng.random() < 0.3:
        docs.append(x_discovery_identity(rng))
    return f"{V14_PREFIX}rule discovery without identity", docs, v1


def g14_etcd_encryption(rng):
    docs = [x_etcd_encryption(rng)] if rng.random() < 0.2 else []
    v1 = delete_frag([["cluster", "secretboxEncryptionSecret"], ["cluster", "aescbcEncryptionSecret"]], rng) or {}
    if rng.random() < 0.4:
        v1["machine"] = {"type": "controlplane"}
    return f"{V14_PREFIX}rule etcd encryption on control planes", docs, v1 or None


def g14_cp_only_on_worker(rng):
    kinds = rng.sample([k for k in K8S_KINDS if k[0] in CP_ONLY], rng.randint(1, 2))
    docs = [fn(rng) for _, fn, _ in kinds]
    v1 = {"machine": {"type": "worker"}} if rng.random() < 0.7 else None
    return f"{V14_PREFIX}rule control-plane-only kinds on a worker", docs, v1


def g14_non_plain_dns(rng):
    res = kdoc("ResolverConfig", nameservers=[{"address": "1.1.1.1", "protocol": rng.choice(["DoT", "DoH"]), "tlsServerName": "one.one.one.one"}])
    v1 = delete_or(rng, ["machine", "features", "hostDNS"], None) if rng.random() < 0.6 else {"machine": {"features": {"hostDNS": {"enabled": False}}}}
    return f"{V14_PREFIX}rule non-plain DNS without hostDNS", [res], v1


def g14_v1alpha1_changes(rng):
    """v1alpha1 settings whose validation changed in v1.14 (install, controlPlane, files, overrides)."""
    return rng.choice(
        [
            (f"{V14_PREFIX}v1alpha1 delete machine.install", [], delete_or(rng, ["machine", "install"], None)),
            (f"{V14_PREFIX}v1alpha1 delete cluster.controlPlane", [], delete_or(rng, ["cluster", "controlPlane"], None)),
            (f"{V14_PREFIX}v1alpha1 machine.files", [], {"machine": {"files": [{"content": "x", "permissions": 420, "path": "/var/f", "op": "create"}]}}),
            (f"{V14_PREFIX}v1alpha1 baseRuntimeSpecOverrides", [], {"machine": {"baseRuntimeSpecOverrides": {"process": {"rlimits": []}}}}),
            (f"{V14_PREFIX}v1alpha1 delete cluster.network", [], delete_or(rng, ["cluster", "network"], None)),
        ]
    )


V14_GENERATORS = [
    (g14_k8s, 34),
    (g14_other, 22),
    (g14_fields, 12),
    (g14_repeat, 5),
    (g14_two_v1alpha1, 3),
    (g14_delete_absent, 3),
    (g14_link_claims, 4),
    (g14_hostdns, 5),
    (g14_kubespan_nodisco, 3),
    (g14_disco_noidentity, 3),
    (g14_etcd_encryption, 3),
    (g14_cp_only_on_worker, 4),
    (g14_non_plain_dns, 2),
    (g14_v1alpha1_changes, 3),
]


def make_patch_v14(rng: random.Random) -> Patch:
    """About 75% of v1.14 patches are built from V14_GENERATORS (1-3 of them, sometimes with an old
    v1alpha1 fragment or kind document too); the rest come from the v1.13 grammar (make_patch)."""
    if rng.random() >= 0.75:
        return make_patch(rng)
    docs: list = []
    v1s: list = []  # v1alpha1 fragments, merged into one document unless the generator wants two
    what: list[str] = []
    for _ in range(rng.choices([1, 2, 3], [60, 30, 10])[0]):
        fn = wchoice(rng, V14_GENERATORS)
        name, ds, v1 = fn(rng)
        what.append(name)
        if fn is g14_two_v1alpha1:
            docs.extend(ds)
            continue
        docs.extend(ds)
        if v1 is not None:
            v1s.append(v1)
    if rng.random() < 0.08:
        name, frag = wchoice(rng, V1ALPHA1_GENERATORS)(rng)
        v1s.append(frag)
        what.append(name)
    elif rng.random() < 0.06:
        name, doc = wchoice(rng, KIND_GENERATORS)(rng)
        docs.append(doc)
        what.append(name)
    if v1s:
        v1 = v1s[0]
        for f in v1s[1:]:
            v1 = deep_merge(v1, f)
        if rng.random() < 0.3:
            v1 = {"version": "v1alpha1", **v1}
        docs.insert(rng.randint(0, len(docs)), v1)
    if not docs:  # the generators aimed only at deletes the base cannot take: add a new kind instead
        name, ds, _ = g14_other(rng)
        docs.extend(ds)
        what.append(name)
    parts = [emit_doc(d, rng) for d in docs]
    text = ("---\n" if rng.random() < 0.1 else "") + "---\n".join(parts)
    data = text.encode()
    if rng.random() < 0.05:
        name, fn, _ = rng.choices(CORRUPTIONS, [c[2] for c in CORRUPTIONS])[0]
        data = fn(rng, data)
        what.append("corrupt: " + name)
    return Patch(data, what)


HAND_BASES_V14 = {
    "hand14/v1alpha1-slim-controlplane.yaml": (
        "version: v1alpha1\nmachine:\n    type: controlplane\n    token: abc.def\ncluster:\n    token: abc.def\n---\n"
        "apiVersion: v1alpha1\nkind: KubeClusterConfig\nclusterName: lab\nendpoint: https://10.5.0.2:6443\n"
    ),
    "hand14/worker-kinds.yaml": (
        "version: v1alpha1\nmachine:\n    type: worker\n---\napiVersion: v1alpha1\nkind: KubeletConfig\nimage: ghcr.io/siderolabs/kubelet:v1.36.0\nconfig: {}\n"
        "---\napiVersion: v1alpha1\nkind: ResolverConfig\nhostDNS:\n    enabled: true\n    forwardKubeDNSToHost: true\n"
    ),
    "hand14/kinds-only.yaml": (
        "apiVersion: v1alpha1\nkind: KubeletConfig\nimage: ghcr.io/siderolabs/kubelet:v1.36.0\nconfig: {}\n---\n"
        "apiVersion: v1alpha1\nkind: DiscoveryServiceConfig\nname: default\nendpoint: https://discovery.talos.dev/\n"
    ),
}


def load_bases_v14(shared: str, fixtures: str) -> list[tuple[str, str, bytes]]:
    """The v1.13 bases plus v1.14's peer data (its kinds' testdata and the v1.14 stability configs)."""
    # 08-fix.yaml is a patch (it fails to decode as a base); types/meta's testdata are Args values, not documents.
    found = [b for b in load_bases(shared, fixtures) if not b[1].endswith("08-fix.yaml")]
    seen = {data for _, _, data in found}
    root = os.path.join(shared, "peer", "talos-v1.14.0-rc.1")
    extra = [("hand14", n, t.encode()) for n, t in HAND_BASES_V14.items()]
    for f in sorted(glob.glob(os.path.join(root, "**", "*"), recursive=True)):
        if not os.path.isfile(f) or "/fuzz/" in f or not f.endswith(".yaml") or "_redacted" in f or "/types/meta/" in f:
            continue
        with open(f, "rb") as fh:
            data = fh.read()
        if "/stability/v1.14/" in f:
            cat = "peer14-config"
        elif "/types/" in f and "/v1alpha1/" not in f:
            cat = "peer14-kind"
        else:
            continue
        extra.append((cat, os.path.relpath(f, os.path.dirname(shared)), data))
    for cat, name, data in extra:
        if data not in seen:
            seen.add(data)
            found.append((cat, name, data))
    found.sort(key=lambda t: t[1])
    return found


def choose_base_v14(rng: random.Random, bases) -> tuple[str, bytes]:
    by_cat = defaultdict(list)
    for cat, name, data in bases:
        by_cat[cat].append((name, data))
    cat = rng.choices(["fixture", "hand", "peer-config", "peer-kind", "peer14-config", "peer14-kind", "hand14"], [40, 6, 8, 5, 20, 13, 8])[0]
    if not by_cat[cat]:
        cat = "fixture"
    name, data = rng.choice(by_cat[cat])
    if cat in ("peer-kind", "peer14-kind") and rng.random() < 0.6:
        # A kind document after a v1alpha1 config (not a v1.14 stability config: it has most kinds already).
        fname, fdata = rng.choice(by_cat["fixture"])
        return f"{fname}+{name}", fdata.rstrip(b"\n") + b"\n---\n" + data
    return name, data


def make_case_v14(rng: random.Random, index: int, bases) -> Case:
    base_name, base = choose_base_v14(rng, bases)
    _BASE14["text"] = base
    patches = [make_patch_v14(rng) for _ in range(rng.choices([1, 2, 3], [60, 28, 12])[0])]
    for p in patches:
        if rng.random() < 0.1 and p.text and b"\x00" not in p.text and not p.text.startswith(b"@") and not p.text.endswith((b"\n", b"\r")):
            p.inline = True
    mode = rng.choice(["container", "metal", "cloud"])
    if any("container hostDNS" in w for p in patches for w in p.what) and rng.random() < 0.85:
        mode = "container"
    strict = rng.random() < 0.3
    return Case(index, base_name, base, patches, mode, strict)


# What the v1.14 coverage report counts: the new kinds and rules (by `what` names), and texts of
# the oracle (merge or validate stderr) that the new material should reach.
V14_TEXTS = [
    "is already set in v1alpha1 config", "already set in the v1alpha1 config", "can't be used with", "cannot use KubeCredentialProviderConfig",
    "is incompatible with v1alpha1 config", "discovery service is already configured", "cluster identity is already configured",
    "hostDNS config is required in container mode", "hostDNS must be enabled in container mode", "forwardKubeDNSToHost must be enabled in container mode",
    "hostDNS must be enabled when using non-default DNS protocols", "KubeSpan requires cluster discovery to be enabled",
    "should be set when cluster discovery (DiscoveryServiceConfig) is enabled", "etcd encryption config is required for control plane machines",
    "are only allowed on control plane machines", "conflicting link configurations", "duplicate document", "conflicting documents",
    "kubelet configuration field", "image cannot be empty", "is not allowed: use KubeAuth", "authorizer type", "invalid port",
    "pod subnets: ", "service subnets: ", "nodeCIDRMaskSize", "invalid node labels", "invalid proxy mode", "not recommended, please switch to nftables",
    "service issuer", "issuing CA: ", "issuing CA is not set", "accepted CA #", "manifest name", "manifest URL", "static pod", "flannel backend type",
    "invalid role", "clusterName must be specified", "endpoint must be specified", "cluster endpoint is invalid", "etcd encryption config is required\n",
    "interval cannot be negative", "scrub interval", "clusterSecret", "endpoint scheme", "endpoint host is required", "reserved for the legacy CRI",
    "failed to unmarshal base runtime spec", "user etc file", "sysctl key cannot be empty", "sysfs key cannot be empty", "installer.image is not set",
    "provisioning.volumeSelector.match", "name must be between", "can only contain ASCII letters", "mirrors is only valid", "mirrors must be at least", "stripes is only valid", "stripes must be at least", "provisioning.volumeGroup",
    "provisioning.maxSize", "must not exceed", "peer name", "HTTP probe", "localASN", "routerID", "neighbor[", "importRoutes[",
    "container \"", "invalid image reference", "tlsServerName must be", "nameserver address must be a valid IP",
    "hostDNS.forwardKubeDNSToHost cannot be enabled", "NTS requires hostnames", "mount config is not allowed", "filesystem config is not allowed",
    "only supported when it is provisioned onto a dedicated partition", "xfs options are only available", ".machine.files is deprecated",
    ".machine.baseRuntimeSpecOverrides is deprecated", "not registered", "unknown keys found",
]


def v14_coverage(rs) -> list[str]:
    """Lines of the v1.14 coverage report for a list of Outcome."""
    lines = []
    n = len(rs)
    new = [o for o in rs if any(w.startswith(V14_PREFIX) for w in o.what)]
    lines.append(f"  v1.14 coverage: {len(new)} of {n} cases touch new material; {sum(o.validated for o in new)} of those reached validation")
    by_item: dict[str, list] = defaultdict(list)
    for o in rs:
        seen = set()
        for w in o.what:
            if not w.startswith(V14_PREFIX):
                continue
            rest = w[len(V14_PREFIX):]
            m = re.match(r"(kind|field) (\w+)( \+ delete v1alpha1)?", rest)
            if m:
                seen.add(f"{m.group(1)} {m.group(2)}{' (+delete v1alpha1)' if m.group(3) else ''}")
                seen.add(f"{m.group(1)} {m.group(2)}")
            else:
                seen.add(re.sub(r":.*", "", rest) if rest.startswith("rule") else rest)
        for s in seen:
            by_item[s].append(o)
    for label, table in (("kind", K8S_KINDS + OTHER_KINDS), ("field", NEW_FIELDS)):
        for k, _, _ in table:
            key = f"{label} {k}"
            os_ = by_item.get(key, [])
            clean = by_item.get(key + " (+delete v1alpha1)", [])
            lines.append(f"    {len(os_):4d} cases ({sum(o.validated for o in os_):4d} validated; {len(clean):3d} with its v1alpha1 sections deleted)  {key}")
    for key in sorted(k for k in by_item if not k.startswith(("kind ", "field "))):
        os_ = by_item[key]
        lines.append(f"    {len(os_):4d} cases ({sum(o.validated for o in os_):4d} validated)  {key}")
    lines.append("  oracle texts reached (cases whose oracle stderr, merge or validate, holds the text):")
    for t in V14_TEXTS:
        hits = sum(t in o.oracle_err for o in rs)
        lines.append(f"    {hits:4d}  {t!r}")
    return lines


# ---------------------------------------------------------------------------------------------
# Running and comparing
# ---------------------------------------------------------------------------------------------

HINT = re.compile(rb"labctl: in [^\n]* at line [^\n]*\n?\Z")
# The usage block labctl prints after an error that mentions a flag, a command or arg(s), as
# talosctl's root command does; the reference program is not that command and prints none.
USAGE = re.compile(rb"\n\nUsage:\n  labctl (?:merge|validate) [^\n]*\n.*\Z", re.S)


def norm_labctl_stderr(err: bytes, release: str = "") -> bytes:
    warning = PREVIEW_WARNING.get(release)
    if warning and warning in err:
        i = err.index(warning)
        if i == 0 or err[i - 1 : i] == b"\n":
            err = err[:i] + err[i + len(warning) :]
    while True:
        m = HINT.search(err)
        if not m or (m.start() != 0 and err[m.start() - 1 : m.start()] != b"\n"):
            return USAGE.sub(b"\n", err)
        err = err[: m.start()]


@dataclasses.dataclass
class Run:
    cmd: list
    rc: int
    out: bytes
    err: bytes


def run(cmd: list, cwd: str, timeout: float) -> Run:
    try:
        p = subprocess.run(cmd, cwd=cwd, stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout)
        return Run(cmd, p.returncode, p.stdout, p.stderr)
    except subprocess.TimeoutExpired as e:
        return Run(cmd, -999, e.stdout or b"", (e.stderr or b"") + b"\n<timeout>\n")


def is_panic(r: Run) -> bool:
    return r.rc == 2 and b"panic:" in r.err


@dataclasses.dataclass
class Outcome:
    index: int
    release: str
    status: str  # identical | differ | panic
    stage: str = ""
    channel: str = ""
    oracle_line: str = ""
    labctl_line: str = ""
    size: int = 0
    folder: str = ""
    validated: bool = False
    oracle_first: str = ""
    what: list = dataclasses.field(default_factory=list)
    oracle_err: str = ""  # the oracle's stderr (merge, then validate), for the v1.14 coverage report


def first_line(b: bytes) -> str:
    s = b.decode("utf-8", "backslashreplace").strip().split("\n")[0]
    return re.sub(r"line \d+", "line N", s)[:120]


def first_diff_line(a: bytes, b: bytes) -> tuple[str, str]:
    la, lb = a.split(b"\n"), b.split(b"\n")
    for i in range(max(len(la), len(lb))):
        x = la[i] if i < len(la) else None
        y = lb[i] if i < len(lb) else None
        if x != y:
            show = lambda v: "<end>" if v is None else v.decode("utf-8", "backslashreplace")
            return show(x), show(y)
    return "", ""


def compare(stage: str, o: Run, l: Run, l_err: bytes) -> tuple[str, str, str] | None:
    if o.out != l.out:
        a, b = first_diff_line(o.out, l.out)
        return "stdout", a, b
    if o.err != l_err:
        a, b = first_diff_line(o.err, l_err)
        return "stderr", a, b
    if o.rc != l.rc:
        return "exit", str(o.rc), str(l.rc)
    return None


class Runner:
    def __init__(self, args):
        self.args = args
        self.labctl = os.path.abspath(args.labctl)
        self.oracles = {r: os.path.abspath(p) for r, p in args.oracle.items()}

    def case_files(self, case: Case, d: str) -> list[str]:
        with open(os.path.join(d, "base.yaml"), "wb") as f:
            f.write(case.base)
        argv = []
        for i, p in enumerate(case.patches, 1):
            name = f"patch-{i}.yaml"
            with open(os.path.join(d, name), "wb") as f:
                f.write(p.text)
            argv.append(p.text if p.inline else ("@" + name).encode())
        return argv

    def run_case(self, case: Case, release: str) -> Outcome:
        oracle = self.oracles[release]
        only = self.args.oracle_only
        d = tempfile.mkdtemp(prefix=f"diff-{case.index}-", dir=self.args.tmp)
        try:
            patch_args = self.case_files(case, d)
            runs: dict[str, Run] = {}
            runs["oracle.patch"] = o = run([oracle, "patch", "base.yaml", "-"] + patch_args, d, self.args.timeout)
            out = Outcome(case.index, release, "identical", size=case.size(), what=[w for p in case.patches for w in p.what])
            out.oracle_err = o.err.decode("utf-8", "backslashreplace")
            out.oracle_first = first_line(o.err) if o.rc else "merge ok"
            if is_panic(o):
                out.status = "panic"
                out.stage = "patch"
                return out
            if only:
                diff = None  # --oracle-only: no labctl; every case counts as "identical"
            else:
                largs = [self.labctl, "merge", "base.yaml"]
                for a in patch_args:
                    largs += ["-p", a]
                largs += ["--talos-release", release]
                runs["labctl.merge"] = l = run(largs, d, self.args.timeout)
                lout = l.out
                if self.args.strip_merge_newline and l.rc == 0 and lout.endswith(b"\n"):
                    lout = lout[:-1]
                diff = compare("merge", o, Run(l.cmd, l.rc, lout, l.err), norm_labctl_stderr(l.err, release))
            if diff is None and o.rc == 0:
                # The oracle's stdout is the config plus talosctl's Printf("%s\n"): validate the config bytes.
                merged = o.out[:-1] if o.out.endswith(b"\n") else o.out
                with open(os.path.join(d, "merged.yaml"), "wb") as f:
                    f.write(merged)
                vo = [oracle, "validate", "merged.yaml", case.mode] + (["--strict"] if case.strict else [])
                vl = [self.labctl, "validate", "--talos-release", release, "--config", "merged.yaml", "--mode", case.mode] + (
                    ["--strict"] if case.strict else []
                )
                runs["oracle.validate"] = vor = run(vo, d, self.args.timeout)
                out.validated = True
                out.oracle_err += vor.err.decode("utf-8", "backslashreplace")
                out.oracle_first = "merge ok; validate: " + (first_line(vor.err) if vor.rc else "valid")
                if is_panic(vor):
                    out.status = "panic"
                    out.stage = "validate"
                    return out
                if not only:
                    runs["labctl.validate"] = vlr = run(vl, d, self.args.timeout)
                    vdiff = compare("validate", vor, vlr, norm_labctl_stderr(vlr.err, release))
                    if vdiff is not None:
                        out.stage = "validate"
                        diff = vdiff
            elif diff is not None:
                out.stage = "merge"
            if diff is None:
                return out
            out.status = "differ"
            out.channel, out.oracle_line, out.labctl_line = diff
            out.folder = self.save(case, release, d, runs, out)
            return out
        finally:
            shutil.rmtree(d, ignore_errors=True)

    def save(self, case: Case, release: str, d: str, runs: dict[str, Run], out: Outcome) -> str:
        dest = os.path.join(self.args.out, release, f"case-{case.index:05d}")
        if os.path.exists(dest):
            shutil.rmtree(dest)
        os.makedirs(dest)
        for name in os.listdir(d):
            shutil.copy(os.path.join(d, name), os.path.join(dest, name))
        for key, r in runs.items():
            for ext, data in (("stdout", r.out), ("stderr", r.err), ("rc", f"{r.rc}\n".encode())):
                with open(os.path.join(dest, f"{key}.{ext}"), "wb") as f:
                    f.write(data)
        # run.sh: the same commands, runnable from the folder.
        lines = [
            "#!/bin/sh",
            f"# differential case {case.index} (seed {self.args.seed}), Talos {release}; base: {case.base_name}",
            f"# patches: {json.dumps([p.what for p in case.patches])}",
            "# merge stdout: compared byte for byte; stderr: labctl's trailing `labctl: ...` hint lines"
            + (" and its preview warning line" if release in PREVIEW_WARNING else "")
            + " dropped",
            'cd "$(dirname "$0")"',
            f"ORACLE=${{ORACLE:-{self.oracles[release]}}}",
            f"LABCTL=${{LABCTL:-{self.labctl}}}",
        ]
        pargs = []
        for i, p in enumerate(case.patches, 1):
            pargs.append(f'"$(cat patch-{i}.yaml)"' if p.inline else f"@patch-{i}.yaml")
        lines.append('echo "== oracle patch"; "$ORACLE" patch base.yaml - ' + " ".join(pargs) + '; echo "rc=$?"')
        lines.append(
            'echo "== labctl merge"; "$LABCTL" merge base.yaml ' + " ".join("-p " + a for a in pargs) + f" --talos-release {release}; echo \"rc=$?\""
        )
        strict = " --strict" if case.strict else ""
        if "oracle.validate" in runs:
            lines.append(f'echo "== oracle validate"; "$ORACLE" validate merged.yaml {case.mode}{strict}; echo "rc=$?"')
            lines.append(
                f'echo "== labctl validate"; "$LABCTL" validate --talos-release {release} --config merged.yaml --mode {case.mode}{strict}; echo "rc=$?"'
            )
        with open(os.path.join(dest, "run.sh"), "w") as f:
            f.write("\n".join(lines) + "\n")
        os.chmod(os.path.join(dest, "run.sh"), 0o755)
        meta = {
            "seed": self.args.seed,
            "index": case.index,
            "release": release,
            "base": case.base_name,
            "patches": [{"file": f"patch-{i}.yaml", "inline": p.inline, "what": p.what} for i, p in enumerate(case.patches, 1)],
            "mode": case.mode,
            "strict": case.strict,
            "stage": out.stage,
            "channel": out.channel,
            "oracle_line": out.oracle_line,
            "labctl_line": out.labctl_line,
            "commands": {k: [c.decode("utf-8", "backslashreplace") if isinstance(c, bytes) else c for c in r.cmd] for k, r in runs.items()},
        }
        with open(os.path.join(dest, "case.json"), "w") as f:
            json.dump(meta, f, indent=2)
            f.write("\n")
        return dest


def group_key(o: Outcome) -> str:
    def mask(s: str) -> str:
        s = re.sub(r"line \d+", "line N", s)
        s = re.sub(r"column \d+", "column N", s)
        return s[:200]

    return f"{o.stage}/{o.channel}: oracle {mask(o.oracle_line)!r} | labctl {mask(o.labctl_line)!r}"


def calibrate(args) -> None:
    labctl = os.path.abspath(args.labctl)
    base = os.path.join(SHARED, "fixtures", "worker.yaml")
    with tempfile.TemporaryDirectory(dir=args.tmp) as d:
        shutil.copy(base, os.path.join(d, "base.yaml"))
        cases = [
            ("labels", ["machine: {nodeLabels: {a: b}}"]),
            ("unknown field", ["machine: {foo: bar}"]),
            ("tab", ["machine:\n\tnetwork: {}\n"]),
            ("json6902 multi-doc", ['[{"op": "add", "path": "/machine/type", "value": "worker"}]']),
        ]
        for release in args.release:
            for name, patches in cases:
                o = run([args.oracle[release], "patch", "base.yaml", "-"] + patches, d, args.timeout)
                largs = [labctl, "merge", "base.yaml"] + [x for p in patches for x in ("-p", p)] + ["--talos-release", release]
                l = run(largs, d, args.timeout)
                print(f"== {release} {name}")
                print(f"  oracle rc={o.rc} stdout tail={o.out[-30:]!r} stderr={o.err[:300]!r}")
                print(f"  labctl rc={l.rc} stdout tail={l.out[-30:]!r} stderr={l.err[:300]!r}")
                print(f"  stdout equal: {o.out == l.out}; labctl minus final newline equal: {o.out == l.out[:-1]}")
            for mode in ("container", "bogus"):
                o = run([args.oracle[release], "validate", "base.yaml", mode, "--strict"], d, args.timeout)
                l = run([labctl, "validate", "--talos-release", release, "--config", "base.yaml", "--mode", mode, "--strict"], d, args.timeout)
                print(f"== {release} validate {mode}")
                print(f"  oracle rc={o.rc} out={o.out!r} err={o.err!r}")
                print(f"  labctl rc={l.rc} out={l.out!r} err={l.err!r}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--release", action="append", choices=RELEASES, help="release(s) to test (default: v1.12.11 and v1.13.9)")
    ap.add_argument("-n", "--cases", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--start", type=int, default=0, help="first case index")
    ap.add_argument("--case", type=int, action="append", help="run only these case indices")
    ap.add_argument("--cases-from", metavar="SUMMARY.json", help="run only the mismatching cases of an earlier run (its seed too)")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--out", default="/tmp/differential-out", help="mismatch folders go to OUT/RELEASE/case-NNNNN; OUT/summary-RELEASES.json lists every group")
    ap.add_argument("--labctl", default=DEFAULT_LABCTL)
    ap.add_argument("--oracle-1.12", dest="oracle12", default=DEFAULT_ORACLES["v1.12.11"])
    ap.add_argument("--oracle-1.13", dest="oracle13", default=DEFAULT_ORACLES["v1.13.9"])
    ap.add_argument("--oracle-1.14", dest="oracle14", default=DEFAULT_ORACLES["v1.14.0-rc.1"])
    ap.add_argument("--shared", default=SHARED)
    ap.add_argument("--fixtures", default=os.path.join(REPO, "fixtures"))
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--tmp", default=None, help="where per-case scratch folders are made")
    ap.add_argument("--strip-merge-newline", action="store_true", help="drop labctl merge's final newline before comparing")
    ap.add_argument("--groups", type=int, default=40, help="how many mismatch groups to print per release")
    ap.add_argument("--calibrate", action="store_true", help="print both tools' raw output on a few known cases")
    ap.add_argument("--dump", action="store_true", help="print the generated cases instead of running them")
    ap.add_argument("--oracle-only", action="store_true", help="run the oracle only (no labctl): for the coverage report and --stats")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--stats", type=int, default=0, metavar="K", help="print the K most frequent oracle outcomes per release")
    args = ap.parse_args()
    args.release = args.release or list(DEFAULT_RELEASES)
    args.oracle = {"v1.12.11": args.oracle12, "v1.13.9": args.oracle13, V14: args.oracle14}
    for r in args.release:
        if not args.dump and not os.access(args.oracle[r], os.X_OK):
            sys.exit(f"differential: no oracle for {r} at {args.oracle[r]}")
    if not args.dump and not args.oracle_only and not os.access(args.labctl, os.X_OK):
        sys.exit(f"differential: no labctl at {args.labctl}")
    if args.calibrate:
        calibrate(args)
        return 0

    bases = load_bases(args.shared, args.fixtures)
    indices = args.case or list(range(args.start, args.start + args.cases))
    if args.cases_from:
        # Replay the mismatches of an earlier run (e.g. with another --labctl build).
        with open(args.cases_from) as f:
            prev = json.load(f)
        args.seed = prev["seed"]
        picked = set()
        for r in args.release:
            for g in prev["releases"].get(r, {}).get("groups", []):
                picked.update(g["cases"])
        indices = sorted(picked)
    # v1.12.11 and v1.13.9 share one case stream; v1.14.0-rc.1 has its own (same seed and index, other
    # bases and generators), so adding it changes nothing in the other releases' cases.
    cases = [make_case(args.seed, i, bases) for i in indices] if any(r != V14 for r in args.release) else []
    cases_v14: list[Case] = []
    if V14 in args.release:
        load_pems(args.shared)
        bases14 = load_bases_v14(args.shared, args.fixtures)
        cases_v14 = [make_case_v14(random.Random(f"differential:{args.seed}:{i}"), i, bases14) for i in indices]
    by_release = {r: (cases_v14 if r == V14 else cases) for r in args.release}
    if args.dump:
        streams = [("", cases)] if cases else []
        if cases_v14:
            streams.append((V14, cases_v14))
        for label, cs in streams:
            if len(streams) > 1:
                print(f"=== cases for {label or ' and '.join(r for r in args.release if r != V14)}")
            for c in cs:
                print(f"--- case {c.index}: base {c.base_name}, mode {c.mode}{' --strict' if c.strict else ''}")
                for i, p in enumerate(c.patches, 1):
                    print(f"  patch {i}{' (inline)' if p.inline else ''}: {p.what}\n    {p.text!r}")
        if cases_v14:
            npatch = sum(len(c.patches) for c in cases_v14)
            nnew = sum(any(w.startswith(V14_PREFIX) for w in p.what) for c in cases_v14 for p in c.patches)
            print(f"=== v1.14: {nnew} of {npatch} patches touch new material")
        return 0
    os.makedirs(args.out, exist_ok=True)
    runner = Runner(args)
    jobs = [(c, r) for r in args.release for c in by_release[r]]
    results: dict[str, list[Outcome]] = defaultdict(list)
    lock = threading.Lock()
    done = 0
    t0 = time.time()
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futs = {pool.submit(runner.run_case, c, r): (c, r) for c, r in jobs}
        for fut in concurrent.futures.as_completed(futs):
            c, r = futs[fut]
            try:
                o = fut.result()
            except Exception as e:  # a harness bug: report and keep going
                o = Outcome(c.index, r, "differ", stage="harness", channel="exception", oracle_line=repr(e), labctl_line="")
            with lock:
                results[r].append(o)
                done += 1
                if args.verbose and o.status != "identical":
                    print(f"[{r} case {o.index}] {o.status} {o.stage}/{o.channel}: {o.oracle_line!r} vs {o.labctl_line!r}", flush=True)
                if done % 250 == 0:
                    print(f"... {done}/{len(jobs)} runs ({time.time() - t0:.0f}s)", file=sys.stderr, flush=True)

    summary = {}
    summary_name = "summary-" + "+".join(args.release) + ".json"
    for r in args.release:
        rs = sorted(results[r], key=lambda o: o.index)
        st = Counter(o.status for o in rs)
        print(f"release {r}: {len(rs)} cases, {st['identical']} identical, {st['differ']} differ, {st['panic']} oracle panics")
        nval = sum(o.validated for o in rs)
        vok = sum(o.validated and o.status == "identical" for o in rs)
        if args.oracle_only:
            print(f"  (--oracle-only: no labctl; {nval} cases merged and were validated by the oracle)")
        else:
            print(f"  ({nval} cases merged alike and were validated; {vok} of those identical in both steps)")
        if r == V14:
            for line in v14_coverage(rs):
                print(line)
        groups: dict[str, list[Outcome]] = defaultdict(list)
        for o in rs:
            if o.status == "differ":
                groups[group_key(o)].append(o)
        ordered = sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))
        for key, members in ordered[: args.groups]:
            smallest = min(members, key=lambda o: o.size)
            print(f"  {len(members):5d} x {key}")
            print(f"          e.g. {smallest.folder or ('case ' + str(smallest.index))}")
        if len(ordered) > args.groups:
            print(f"  ... {len(ordered) - args.groups} more groups (see {os.path.join(args.out, summary_name)})")
        if args.stats:
            print("  what the oracle said (first line, masked), most frequent first:")
            for line, n in Counter(o.oracle_first for o in rs).most_common(args.stats):
                print(f"    {n:5d}  {line}")
        panics = [o.index for o in rs if o.status == "panic"]
        if panics:
            print(f"  oracle panics in cases: {panics[:30]}{' ...' if len(panics) > 30 else ''}")
        summary[r] = {
            "cases": len(rs),
            "identical": st["identical"],
            "differ": st["differ"],
            "panics": st["panic"],
            "panic_cases": panics,
            "groups": [
                {"key": k, "count": len(m), "cases": [o.index for o in m], "smallest": min(m, key=lambda o: o.size).folder} for k, m in ordered
            ],
        }
    with open(os.path.join(args.out, summary_name), "w") as f:
        json.dump({"seed": args.seed, "labctl": os.path.abspath(args.labctl), "indices": indices, "releases": summary}, f, indent=2)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
