#!/usr/bin/env python3
"""Real-config comparison of labctl against Talos's own code (the oracle), one release at a time.

Corpus: /tmp/realcfg/corpus/INDEX.tsv (repo, path, kind full|patch|json6902, ...). Only the first
file of each distinct content is run (the `dup_of` column is empty); --all runs duplicates too.

Comparisons per file (release R, default v1.14.0-rc.1):
  full config   validate metal; validate container; validate metal --strict;
                merge with no patch (the config re-encoded by Talos's encoder)
  patch/json6902  merge onto fixtures/controlplane.yaml; merge onto fixtures/worker.yaml; for each
                merge where both tools succeeded with equal bytes: validate the merged config (metal)

Normalisation (as scripts/differential.py): labctl's preview warning line (v1.14) and a trailing
`labctl: in <input> at line ...` hint line are dropped from labctl's stderr; everything else is
compared byte for byte, exit codes too. Oracle exit 2 with `panic:` in stderr: counted as a panic,
not compared.

Every differing comparison is saved under OUT/R/diffs/NNNNN-<stage>/ (base, patch, both outputs,
run.sh); OUT/R/results.json lists every comparison; OUT/R/groups.txt the groups.

Usage: python3 compare.py [--release R] [-j 2] [--out /tmp/realcfg/out] [--limit N] [--match SUBSTR]
"""

from __future__ import annotations

import argparse
import concurrent.futures
import csv
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "scripts"))
from differential import PREVIEW_WARNING, norm_labctl_stderr  # noqa: E402  (normalisation, reused as is)

HERE = os.environ.get("REALCFG_DIR", "/tmp/realcfg")
CORPUS = os.path.join(HERE, "corpus")
ORACLES = {
    "v1.13.9": "/tmp/oracle-1.13/bin/oracle",
    "v1.14.0-rc.1": "/tmp/oracle-1.14/bin/oracle",
}
BASES = {
    "cp": os.path.join(REPO, "fixtures/controlplane.yaml"),
    "worker": os.path.join(REPO, "fixtures/worker.yaml"),
}


def run(cmd, cwd, timeout=60):
    try:
        p = subprocess.run(cmd, cwd=cwd, stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout)
        return {"rc": p.returncode, "out": p.stdout, "err": p.stderr}
    except subprocess.TimeoutExpired as e:
        return {"rc": -999, "out": e.stdout or b"", "err": (e.stderr or b"") + b"\n<timeout>\n"}


def is_panic(r):
    return r["rc"] == 2 and b"panic:" in r["err"]


def first_diff(a: bytes, b: bytes):
    la, lb = a.split(b"\n"), b.split(b"\n")
    for i in range(max(len(la), len(lb))):
        x = la[i] if i < len(la) else None
        y = lb[i] if i < len(lb) else None
        if x != y:
            s = lambda v: "<end>" if v is None else v.decode("utf-8", "backslashreplace")
            return i + 1, s(x), s(y)
    return 0, "", ""


def compare(o, l, release):
    lerr = norm_labctl_stderr(l["err"], release)
    if o["out"] != l["out"]:
        n, a, b = first_diff(o["out"], l["out"])
        return {"channel": "stdout", "line": n, "oracle": a, "labctl": b}
    if o["err"] != lerr:
        n, a, b = first_diff(o["err"], lerr)
        return {"channel": "stderr", "line": n, "oracle": a, "labctl": b}
    if o["rc"] != l["rc"]:
        return {"channel": "exit", "line": 0, "oracle": str(o["rc"]), "labctl": str(l["rc"])}
    return None


_MASKS = [
    (re.compile(r"line \d+"), "line N"),
    (re.compile(r"column \d+"), "column N"),
    (re.compile(r'"(?:[^"\\]|\\.)*"'), '"Q"'),
    (re.compile(r"'(?:[^'\\]|\\.)*'"), "'Q'"),
    (re.compile(r"\b\d+(\.\d+)*\b"), "N"),
]


def mask(s: str) -> str:
    for rx, rep in _MASKS:
        s = rx.sub(rep, s)
    return s[:220]


def group_key(c):
    d = c["diff"]
    if d["channel"] == "stdout" and c["op"] == "merge":
        # stdout of merge: abstract the YAML line to its key (values differ from file to file)
        k = lambda s: mask(re.sub(r":\s.*", ": V", s)) if s not in ("<end>",) else s
        return f"{c['op']}/stdout: oracle {k(d['oracle'])!r} | labctl {k(d['labctl'])!r}"
    return f"{c['op']}/{d['channel']}: oracle {mask(d['oracle'])!r} | labctl {mask(d['labctl'])!r}"


class Runner:
    def __init__(self, args):
        self.args = args
        self.release = args.release  # the oracle's release
        self.lrel = args.labctl_release or args.release  # the release labctl answers as
        self.oracle = ORACLES[args.release]
        self.labctl = args.labctl
        self.outdir = os.path.join(args.out, args.release + (f"-labctl-{args.labctl_release}" if args.labctl_release and args.labctl_release != args.release else "") + ("-extended" if args.extended else ""))
        self.counter = 0
        self.lock = threading.Lock()

    def next_id(self):
        with self.lock:
            self.counter += 1
            return self.counter

    def save(self, cid, c, d, runs, files):
        dest = os.path.join(self.outdir, "diffs", f"{cid:05d}-{c['op']}")
        if os.path.exists(dest):
            shutil.rmtree(dest)
        os.makedirs(dest)
        for name in files:
            shutil.copy(os.path.join(d, name), os.path.join(dest, name))
        for key, r in runs.items():
            for ext, data in (("stdout", r["out"]), ("stderr", r["err"]), ("rc", f"{r['rc']}\n".encode())):
                with open(os.path.join(dest, f"{key}.{ext}"), "wb") as f:
                    f.write(data)
        with open(os.path.join(dest, "run.sh"), "w") as f:
            f.write(c["runsh"])
        os.chmod(os.path.join(dest, "run.sh"), 0o755)
        meta = {k: v for k, v in c.items() if k != "runsh"}
        with open(os.path.join(dest, "case.json"), "w") as f:
            json.dump(meta, f, indent=2)
            f.write("\n")
        return dest

    def runsh(self, lines):
        R = f"{self.release} (labctl answering as {self.lrel})" if self.lrel != self.release else self.release
        head = [
            "#!/bin/sh",
            f"# real-config comparison, Talos {R}; labctl's preview warning line and trailing `labctl: in ... at line` hint dropped before comparing",
            'cd "$(dirname "$0")"',
            f"ORACLE=${{ORACLE:-{self.oracle}}}",
            f"LABCTL=${{LABCTL:-{self.labctl}}}",
        ]
        return "\n".join(head + lines) + "\n"

    def one(self, c, d, ocmd, lcmd, files, runsh_lines):
        """Run one comparison; c is the record (dict) to fill."""
        o = run([self.oracle] + ocmd, d, self.args.timeout)
        c["oracle_rc"] = o["rc"]
        c["oracle_first"] = (o["err"] or o["out"]).decode("utf-8", "backslashreplace").strip().split("\n")[0][:160] if o["rc"] else "ok"
        if is_panic(o):
            c["status"] = "panic"
            c["panic"] = o["err"].decode("utf-8", "backslashreplace")[:400]
            return o, None
        l = run([self.labctl] + lcmd, d, self.args.timeout)
        c["labctl_rc"] = l["rc"]
        diff = compare(o, l, self.lrel)
        if diff is None:
            c["status"] = "identical"
        else:
            c["status"] = "differ"
            c["diff"] = diff
            c["group"] = group_key(c)
            c["runsh"] = self.runsh(runsh_lines)
            c["folder"] = self.save(self.next_id(), c, d, {"oracle": o, "labctl": l}, files)
            del c["runsh"]
        return o, l

    def merge_validate(self, ident, base_label, base_path, patch_paths, modes):
        """Merge patch_paths (in order) onto base_path; validate the result in each of modes when both agree."""
        R = self.lrel
        out = []
        d = tempfile.mkdtemp(prefix="realcfg-", dir=self.args.tmp)
        try:
            shutil.copy(base_path, os.path.join(d, "base.yaml"))
            names = []
            for i, pp in enumerate(patch_paths, 1):
                names.append(f"patch-{i}.yaml")
                shutil.copy(pp, os.path.join(d, names[-1]))
            oargs = [f"@{n}" for n in names]
            largs = [x for n in names for x in ("-p", f"@{n}")]
            c = dict(ident, op="merge", mode="", base=base_label)
            o, l = self.one(c, d, ["patch", "base.yaml", "-"] + oargs, ["merge", "base.yaml"] + largs + ["--talos-release", R],
                            ["base.yaml"] + names,
                            [f'echo "== oracle"; "$ORACLE" patch base.yaml - {" ".join(oargs)}; echo "rc=$?"',
                             f'echo "== labctl"; "$LABCTL" merge base.yaml {" ".join(largs)} --talos-release {R}; echo "rc=$?"'])
            out.append(c)
            if c["status"] == "identical" and o["rc"] == 0:
                merged = o["out"][:-1] if o["out"].endswith(b"\n") else o["out"]
                with open(os.path.join(d, "merged.yaml"), "wb") as f:
                    f.write(merged)
                for mode in modes:
                    m, *s = mode.split()
                    v = dict(ident, op="validate", mode=mode, base=base_label)
                    self.one(v, d, ["validate", "merged.yaml", m] + s,
                             ["validate", "--talos-release", R, "--config", "merged.yaml", "--mode", m] + s,
                             ["base.yaml", "merged.yaml"] + names,
                             ["# merged.yaml is the oracle's merge of the patches onto base.yaml (talosctl's added newline dropped)",
                              f'echo "== oracle"; "$ORACLE" validate merged.yaml {mode}; echo "rc=$?"',
                              f'echo "== labctl"; "$LABCTL" validate --talos-release {R} --config merged.yaml --mode {m}{" --strict" if s else ""}; echo "rc=$?"'])
                    out.append(v)
        finally:
            shutil.rmtree(d, ignore_errors=True)
        return out

    def run_extended(self, job):
        """Extra comparisons beyond the brief's list (--extended)."""
        kind, ident, payload = job
        if kind == "full-modes":
            out = []
            d = tempfile.mkdtemp(prefix="realcfg-", dir=self.args.tmp)
            try:
                shutil.copy(payload, os.path.join(d, "config.yaml"))
                for mode in ("cloud", "container --strict", "cloud --strict"):
                    m, *s = mode.split()
                    c = dict(ident, op="validate", mode=mode, base="")
                    self.one(c, d, ["validate", "config.yaml", m] + s,
                             ["validate", "--talos-release", self.lrel, "--config", "config.yaml", "--mode", m] + s, ["config.yaml"],
                             [f'echo "== oracle"; "$ORACLE" validate config.yaml {mode}; echo "rc=$?"',
                              f'echo "== labctl"; "$LABCTL" validate --talos-release {self.lrel} --config config.yaml --mode {m}{" --strict" if s else ""}; echo "rc=$?"'])
                    out.append(c)
            finally:
                shutil.rmtree(d, ignore_errors=True)
            return out
        if kind == "patch-modes":
            out = []
            for bname, bpath in BASES.items():
                out += self.merge_validate(ident, bname, bpath, [payload], ["container", "cloud", "metal --strict", "container --strict"])
            # drop the repeated merge comparison (already counted in the main run)
            return [c for c in out if c["op"] != "merge" or c["status"] != "identical"]
        if kind == "inline":
            # the patch text passed as the argument itself (talosctl --patch '<text>'), onto the controlplane fixture
            R = self.lrel
            d = tempfile.mkdtemp(prefix="realcfg-", dir=self.args.tmp)
            try:
                shutil.copy(BASES["cp"], os.path.join(d, "base.yaml"))
                shutil.copy(payload, os.path.join(d, "patch.yaml"))
                with open(payload, "rb") as f:
                    text = f.read()
                if b"\0" in text:
                    return []
                c = dict(ident, op="merge", mode="", base="cp (patch inline)")
                self.one(c, d, ["patch", "base.yaml", "-", text], ["merge", "base.yaml", "-p", text, "--talos-release", R],
                         ["base.yaml", "patch.yaml"],
                         ['echo "== oracle"; "$ORACLE" patch base.yaml - "$(cat patch.yaml)"; echo "rc=$?"',
                          f'echo "== labctl"; "$LABCTL" merge base.yaml -p "$(cat patch.yaml)" --talos-release {R}; echo "rc=$?"',
                          "# note: $(cat) drops trailing newlines; the harness passed the file's exact bytes"])
                return [c]
            finally:
                shutil.rmtree(d, ignore_errors=True)
        if kind == "real-base":
            base, patch = payload
            return self.merge_validate(ident, "repo:" + os.path.relpath(base, CORPUS), base, [patch], ["metal", "container"])
        if kind == "stack":
            out = []
            for bname, bpath in BASES.items():
                out += self.merge_validate(ident, bname, bpath, payload, ["metal", "container"])
            return out
        raise ValueError(kind)

    def run_file(self, row):
        R = self.lrel
        src = os.path.join(CORPUS, row["corpus_file"])
        size = os.path.getsize(src)
        out = []
        d = tempfile.mkdtemp(prefix="realcfg-", dir=self.args.tmp)
        try:
            ident = {"repo": row["repo"], "path": row["path"], "kind": row["kind"], "corpus_file": row["corpus_file"],
                     "templated": bool(row["templated"]), "size": size, "release": self.release, "labctl_release": R}
            if row["kind"] == "full":
                shutil.copy(src, os.path.join(d, "config.yaml"))
                for mode, strict in (("metal", False), ("container", False), ("metal", True)):
                    c = dict(ident, op="validate", mode=mode + (" --strict" if strict else ""), base="")
                    s = ["--strict"] if strict else []
                    self.one(c, d, ["validate", "config.yaml", mode] + s,
                             ["validate", "--talos-release", R, "--config", "config.yaml", "--mode", mode] + s,
                             ["config.yaml"],
                             [f'echo "== oracle"; "$ORACLE" validate config.yaml {mode}{" --strict" if strict else ""}; echo "rc=$?"',
                              f'echo "== labctl"; "$LABCTL" validate --talos-release {R} --config config.yaml --mode {mode}{" --strict" if strict else ""}; echo "rc=$?"'])
                    out.append(c)
                c = dict(ident, op="merge", mode="", base="self (no patch)")
                self.one(c, d, ["patch", "config.yaml", "-"], ["merge", "config.yaml", "--talos-release", R], ["config.yaml"],
                         ['echo "== oracle"; "$ORACLE" patch config.yaml -; echo "rc=$?"',
                          f'echo "== labctl"; "$LABCTL" merge config.yaml --talos-release {R}; echo "rc=$?"'])
                out.append(c)
            else:
                shutil.copy(src, os.path.join(d, "patch.yaml"))
                for bname, bpath in BASES.items():
                    base = f"base-{bname}.yaml"
                    shutil.copy(bpath, os.path.join(d, base))
                    c = dict(ident, op="merge", mode="", base=bname)
                    o, l = self.one(c, d, ["patch", base, "-", "@patch.yaml"],
                                    ["merge", base, "-p", "@patch.yaml", "--talos-release", R], [base, "patch.yaml"],
                                    [f'echo "== oracle"; "$ORACLE" patch {base} - @patch.yaml; echo "rc=$?"',
                                     f'echo "== labctl"; "$LABCTL" merge {base} -p @patch.yaml --talos-release {R}; echo "rc=$?"'])
                    out.append(c)
                    if c["status"] == "identical" and o["rc"] == 0:
                        merged = o["out"][:-1] if o["out"].endswith(b"\n") else o["out"]
                        mname = f"merged-{bname}.yaml"
                        with open(os.path.join(d, mname), "wb") as f:
                            f.write(merged)
                        v = dict(ident, op="validate", mode="metal", base=bname)
                        self.one(v, d, ["validate", mname, "metal"],
                                 ["validate", "--talos-release", R, "--config", mname, "--mode", "metal"],
                                 [base, "patch.yaml", mname],
                                 [f'# {mname} is the oracle\'s merge of patch.yaml onto {base} (talosctl\'s added newline dropped)',
                                  f'echo "== oracle"; "$ORACLE" validate {mname} metal; echo "rc=$?"',
                                  f'echo "== labctl"; "$LABCTL" validate --talos-release {R} --config {mname} --mode metal; echo "rc=$?"'])
                        out.append(v)
        finally:
            shutil.rmtree(d, ignore_errors=True)
        return out


def extended_jobs(rows):
    jobs = []
    ident = lambda r, extra="": {"repo": r["repo"], "path": r["path"] + extra, "kind": r["kind"], "corpus_file": r["corpus_file"],
                                 "templated": bool(r["templated"]), "size": os.path.getsize(os.path.join(CORPUS, r["corpus_file"]))}
    by_repo = defaultdict(list)
    for r in rows:
        by_repo[r["repo"]].append(r)
        p = os.path.join(CORPUS, r["corpus_file"])
        jobs.append(("full-modes" if r["kind"] == "full" else "patch-modes", ident(r), p))
        if r["kind"] != "full":
            jobs.append(("inline", ident(r, " (inline)"), p))
    for repo, rs in by_repo.items():
        fulls = [r for r in rs if r["kind"] == "full" and not r["templated"]][:3]
        patches = [r for r in rs if r["kind"] != "full" and not r["templated"]]
        for b in fulls:
            for pr in patches[:40]:
                jobs.append(("real-base", ident(pr, f" onto {b['path']}"), (os.path.join(CORPUS, b["corpus_file"]), os.path.join(CORPUS, pr["corpus_file"]))))
        by_dir = defaultdict(list)
        for pr in patches:
            if "#" not in pr["path"]:
                by_dir[os.path.dirname(pr["path"])].append(pr)
        for dname, ps in by_dir.items():
            if len(ps) >= 2:
                ps = sorted(ps, key=lambda r: r["path"])[:12]
                r0 = ps[0]
                idn = dict(ident(r0), path=f"{dname}/* ({len(ps)} patches stacked)", kind="stack",
                           size=sum(os.path.getsize(os.path.join(CORPUS, r["corpus_file"])) for r in ps))
                jobs.append(("stack", idn, [os.path.join(CORPUS, r["corpus_file"]) for r in ps]))
    return jobs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--release", default="v1.14.0-rc.1", choices=sorted(ORACLES))
    ap.add_argument("--labctl-release", default="", help="let labctl answer as this release (default: --release)")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--out", default=os.path.join(HERE, "out"))
    ap.add_argument("--labctl", default=os.path.join(HERE, "labctl"))
    ap.add_argument("--tmp", default=None)
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--all", action="store_true", help="also run files whose content duplicates an earlier one")
    ap.add_argument("--extended", action="store_true", help="run only the extra comparisons (other modes, real bases, stacked patches)")
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--match", default="", help="only corpus files whose path contains this")
    args = ap.parse_args()
    args.jobs = min(args.jobs, 2)

    with open(os.path.join(CORPUS, "INDEX.tsv")) as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    if not args.all:
        rows = [r for r in rows if not r["dup_of"]]
    if args.match:
        rows = [r for r in rows if args.match in r["corpus_file"]]
    if args.limit:
        rows = rows[: args.limit]
    runner = Runner(args)
    outdir = runner.outdir
    if os.path.exists(os.path.join(outdir, "diffs")):
        shutil.rmtree(os.path.join(outdir, "diffs"))
    os.makedirs(outdir, exist_ok=True)

    results = []
    t0 = time.time()
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        if args.extended:
            futs = {pool.submit(runner.run_extended, j): j[1] for j in extended_jobs(rows)}
        else:
            futs = {pool.submit(runner.run_file, r): r for r in rows}
        for i, fut in enumerate(concurrent.futures.as_completed(futs), 1):
            r = futs[fut]
            try:
                results.extend(fut.result())
            except Exception as e:  # harness bug: record, keep going
                results.append({"repo": r["repo"], "path": r["path"], "corpus_file": r["corpus_file"], "op": "harness",
                                "status": "differ", "diff": {"channel": "exception", "oracle": repr(e), "labctl": ""},
                                "group": f"harness: {e!r}"[:200], "size": 0})
            if i % 100 == 0:
                print(f"... {i}/{len(rows)} files ({time.time() - t0:.0f}s)", file=sys.stderr, flush=True)

    results.sort(key=lambda c: (c["corpus_file"], c["op"], c.get("base", ""), c.get("mode", "")))
    st = Counter(c["status"] for c in results)
    by_kind = defaultdict(Counter)
    for c in results:
        by_kind[f"{c.get('kind', '?')}/{c['op']}"][c["status"]] += 1
    groups = defaultdict(list)
    for c in results:
        if c["status"] == "differ":
            groups[c["group"]].append(c)
    ordered = sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))
    lines = [
        f"release {args.release}" + (f" (labctl as {runner.lrel})" if runner.lrel != args.release else "") + f": {len(rows)} files, {len(results)} comparisons, {st['identical']} identical, "
        f"{st['differ']} differ, {st['panic']} oracle panics ({time.time() - t0:.0f}s)",
    ]
    for k in sorted(by_kind):
        lines.append(f"  {k:22s} " + ", ".join(f"{s} {n}" for s, n in sorted(by_kind[k].items())))
    lines.append(f"{len(ordered)} groups:")
    for key, members in ordered:
        smallest = min(members, key=lambda c: c["size"])
        lines.append(f"  {len(members):5d} x {key}")
        lines.append(f"          files {len({m['corpus_file'] for m in members})}, repos {len({m['repo'] for m in members})}; e.g. {smallest['folder']}")
    text = "\n".join(lines) + "\n"
    print(text)
    with open(os.path.join(outdir, "groups.txt"), "w") as f:
        f.write(text)
    with open(os.path.join(outdir, "results.json"), "w") as f:
        json.dump({"release": args.release, "labctl": args.labctl, "files": len(rows),
                   "totals": dict(st), "comparisons": results}, f, indent=1)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
