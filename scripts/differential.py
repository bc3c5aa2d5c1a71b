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
    labctl's stderr before comparing. Nothing else is rewritten.
  * exit codes: compared as they are (0 success, 1 error). An oracle exit 2 whose stderr holds
    `panic:` is a Go panic: the case is counted as an oracle panic and not compared.

Validation runs only when the merge succeeded and both tools agreed on it; both then validate the
same file (`merged.yaml`: the oracle's stdout without talosctl's added newline) in the case's mode
(container, metal or cloud; --strict in about 30% of cases).

Every case is generated from (seed, case index) alone, so `--case 123` replays case 123 of any
run with the same seed, whatever -n or the number of workers. Each mismatch is written to
OUT/RELEASE/case-NNNNN/ with the base, the patches, both tools' outputs and a run.sh.

Usage:
  python3 scripts/differential.py --release v1.13.9 -n 300 --seed 1 --out /tmp/diff-out
  python3 scripts/differential.py --release v1.12.11 -n 5000 --seed 1 --out /tmp/diff-out
  python3 scripts/differential.py --release v1.12.11 --seed 1 --case 42 --case 77 --verbose
  python3 scripts/differential.py --calibrate          # prints raw outputs of a few known cases
  python3 scripts/differential.py --release v1.12.11 --cases-from /tmp/diff-out/summary-v1.12.11.json \
      --labctl target/debug/labctl --out /tmp/diff-recheck   # replay earlier mismatches on another build
  python3 scripts/differential.py --dump -n 5          # print generated cases without running them

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

RELEASES = ("v1.12.11", "v1.13.9")
DEFAULT_ORACLES = {"v1.12.11": "/tmp/oracle-1.12/bin/oracle", "v1.13.9": "/tmp/oracle-1.13/bin/oracle"}
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
# Running and comparing
# ---------------------------------------------------------------------------------------------

HINT = re.compile(rb"labctl: in [^\n]* at line [^\n]*\n?\Z")


def norm_labctl_stderr(err: bytes) -> bytes:
    while True:
        m = HINT.search(err)
        if not m or (m.start() != 0 and err[m.start() - 1 : m.start()] != b"\n"):
            return err
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
        d = tempfile.mkdtemp(prefix=f"diff-{case.index}-", dir=self.args.tmp)
        try:
            patch_args = self.case_files(case, d)
            runs: dict[str, Run] = {}
            runs["oracle.patch"] = o = run([oracle, "patch", "base.yaml", "-"] + patch_args, d, self.args.timeout)
            largs = [self.labctl, "merge", "base.yaml"]
            for a in patch_args:
                largs += ["-p", a]
            largs += ["--talos-release", release]
            runs["labctl.merge"] = l = run(largs, d, self.args.timeout)
            out = Outcome(case.index, release, "identical", size=case.size(), what=[w for p in case.patches for w in p.what])
            out.oracle_first = first_line(o.err) if o.rc else "merge ok"
            if is_panic(o):
                out.status = "panic"
                out.stage = "patch"
                return out
            lout = l.out
            if self.args.strip_merge_newline and l.rc == 0 and lout.endswith(b"\n"):
                lout = lout[:-1]
            diff = compare("merge", o, Run(l.cmd, l.rc, lout, l.err), norm_labctl_stderr(l.err))
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
                runs["labctl.validate"] = vlr = run(vl, d, self.args.timeout)
                out.validated = True
                out.oracle_first = "merge ok; validate: " + (first_line(vor.err) if vor.rc else "valid")
                if is_panic(vor):
                    out.status = "panic"
                    out.stage = "validate"
                    return out
                vdiff = compare("validate", vor, vlr, norm_labctl_stderr(vlr.err))
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
            "# merge stdout: compared byte for byte; stderr: labctl's trailing `labctl: ...` hint lines dropped",
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
    ap.add_argument("--release", action="append", choices=RELEASES, help="release(s) to test (default: both)")
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
    ap.add_argument("--shared", default=SHARED)
    ap.add_argument("--fixtures", default=os.path.join(REPO, "fixtures"))
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--tmp", default=None, help="where per-case scratch folders are made")
    ap.add_argument("--strip-merge-newline", action="store_true", help="drop labctl merge's final newline before comparing")
    ap.add_argument("--groups", type=int, default=40, help="how many mismatch groups to print per release")
    ap.add_argument("--calibrate", action="store_true", help="print both tools' raw output on a few known cases")
    ap.add_argument("--dump", action="store_true", help="print the generated cases instead of running them")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--stats", type=int, default=0, metavar="K", help="print the K most frequent oracle outcomes per release")
    args = ap.parse_args()
    args.release = args.release or list(RELEASES)
    args.oracle = {"v1.12.11": args.oracle12, "v1.13.9": args.oracle13}
    for r in args.release:
        if not os.access(args.oracle[r], os.X_OK):
            sys.exit(f"differential: no oracle for {r} at {args.oracle[r]}")
    if not os.access(args.labctl, os.X_OK):
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
    cases = [make_case(args.seed, i, bases) for i in indices]
    if args.dump:
        for c in cases:
            print(f"--- case {c.index}: base {c.base_name}, mode {c.mode}{' --strict' if c.strict else ''}")
            for i, p in enumerate(c.patches, 1):
                print(f"  patch {i}{' (inline)' if p.inline else ''}: {p.what}\n    {p.text!r}")
        return 0
    os.makedirs(args.out, exist_ok=True)
    runner = Runner(args)
    jobs = [(c, r) for r in args.release for c in cases]
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
        print(f"  ({nval} cases merged alike and were validated; {vok} of those identical in both steps)")
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
