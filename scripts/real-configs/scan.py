#!/usr/bin/env python3
"""Scan a fetched bare repo's HEAD for Talos configs/patches; copy them into the corpus.
usage: scan.py OWNER+NAME [GITDIR]"""
import hashlib, json, os, re, subprocess, sys
import yaml

CORPUS = os.path.join(os.environ.get("REALCFG_DIR", "/tmp/realcfg"), "corpus")
EXTS = (".yaml", ".yml", ".yaml.j2", ".yml.j2", ".yaml.tmpl", ".yaml.tpl", ".yaml.gotmpl", ".j2", ".tpl", ".tmpl")
TOPKEYS = {"version", "machine", "cluster", "debug", "persist"}
TEMPLATE = re.compile(r"\{\{|\{%|\$\{[A-Za-z_]|<%|op://")

def git(gd, *a, binary=False):
    return subprocess.run(["git", "--git-dir", gd, *a], capture_output=True, check=True).stdout if binary else \
        subprocess.run(["git", "--git-dir", gd, *a], capture_output=True, check=True, text=True).stdout

def load_docs(text):
    try:
        return list(yaml.safe_load_all(text)), True
    except Exception:
        return None, False

def is_talos_doc(d):
    if not isinstance(d, dict) or not d:
        return False
    if d.get("apiVersion") == "v1alpha1" and isinstance(d.get("kind"), str):
        return True
    keys = set(map(str, d.keys()))
    return keys <= TOPKEYS and ("machine" in keys or "cluster" in keys) and \
        all(isinstance(d.get(k), (dict, type(None))) for k in ("machine", "cluster") if k in d)

def strip_sops(d):
    if isinstance(d, dict) and "sops" in d and ("machine" in d or "cluster" in d or "apiVersion" in d):
        return {k: v for k, v in d.items() if k != "sops"}
    return d

def is_delete_doc(d):
    return isinstance(d, dict) and d.get("$patch") == "delete" and d.get("apiVersion") == "v1alpha1"

def classify(text):
    """-> (kind, templated) or None"""
    templ = bool(TEMPLATE.search(text))
    docs, ok = load_docs(text)
    if ok:
        docs = [d for d in docs if d is not None]
        if not docs:
            return None
        if len(docs) == 1 and isinstance(docs[0], list) and docs[0] and all(
            isinstance(x, dict) and "op" in x and "path" in x for x in docs[0]):
            paths = [str(x.get("path")) for x in docs[0]]
            if any(p.startswith(("/machine", "/cluster")) for p in paths):
                return "json6902", templ
            return None
        if not all(is_talos_doc(strip_sops(d)) or is_delete_doc(d) for d in docs):
            return None
        if any(isinstance(d, dict) and d.get("version") == "v1alpha1" and "machine" in d and "cluster" in d for d in docs):
            return "full", templ
        return "patch", templ
    # unparsable (templated): regex heuristics
    if not templ:
        return None
    if re.search(r"(?m)^version:\s*v1alpha1\s*$", text) and re.search(r"(?m)^machine:", text) and re.search(r"(?m)^cluster:", text):
        return "full", True
    if re.search(r"(?m)^-\s+op:\s", text) and re.search(r"(?m)^\s+path:\s*[\"']?/(machine|cluster)", text):
        return "json6902", True
    if re.search(r"(?m)^apiVersion:\s*\S+/", text) or re.search(r"(?m)^(spec|metadata|data):", text):
        return None
    if re.search(r"(?m)^(machine|cluster):", text) or re.search(r"(?m)^apiVersion:\s*v1alpha1\s*$", text):
        return "patch", True
    return None

def talconfig_patches(text):
    """inline patches of a talhelper talconfig.yaml -> list of (label, text)"""
    try:
        d = yaml.safe_load(text)
    except Exception:
        return []
    if not isinstance(d, dict) or "nodes" not in d:
        return []
    out = []
    def take(label, lst):
        if not isinstance(lst, list):
            return
        for i, p in enumerate(lst):
            if isinstance(p, str) and not p.lstrip().startswith("@"):
                out.append((f"{label}[{i}]", p))
            elif isinstance(p, (dict, list)):
                out.append((f"{label}[{i}]", yaml.safe_dump(p, sort_keys=False)))
    take("patches", d.get("patches"))
    for sect in ("controlPlane", "worker"):
        if isinstance(d.get(sect), dict):
            take(f"{sect}.patches", d[sect].get("patches"))
    for i, n in enumerate(d.get("nodes") or []):
        if isinstance(n, dict):
            take(f"nodes[{i}].patches", n.get("patches"))
    return out

OMNI_KINDS = {"Cluster", "ControlPlane", "Workers", "Machine"}

def omni_patches(text):
    """inline patches of an Omni cluster template -> list of (label, text)"""
    try:
        docs = [d for d in yaml.safe_load_all(text) if d is not None]
    except Exception:
        return []
    if not docs or not all(isinstance(d, dict) and d.get("kind") in OMNI_KINDS and "apiVersion" not in d for d in docs):
        return []
    out = []
    for i, d in enumerate(docs):
        for j, p in enumerate(d.get("patches") or []):
            if isinstance(p, dict) and isinstance(p.get("inline"), (dict, list)):
                out.append((f"doc{i}.{d['kind']}.patches[{j}].inline", yaml.safe_dump(p["inline"], sort_keys=False)))
    return out

def main():
    name = sys.argv[1]
    gd = sys.argv[2] if len(sys.argv) > 2 else f"/work/.mirror/{name}/repo"
    rev = sys.argv[3] if len(sys.argv) > 3 else "HEAD"
    commit = git(gd, "rev-parse", rev).strip()
    date = git(gd, "log", "-1", "--format=%cs", commit).strip()
    rows = []
    for line in git(gd, "ls-tree", "-r", "-l", commit).splitlines():
        meta, path = line.split("\t", 1)
        _, typ, sha, size = meta.split()
        if typ != "blob" or not size.isdigit() or int(size) > 400_000 or not path.lower().endswith(EXTS):
            continue
        if any(seg in path for seg in ("node_modules/", "vendor/", "/charts/", "website/content/", "/fuzz/")):
            continue
        try:
            data = git(gd, "cat-file", "blob", sha, binary=True)
        except subprocess.CalledProcessError:
            continue
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            continue
        items = []
        base = os.path.basename(path)
        if base.startswith("talconfig") :
            for label, ptxt in talconfig_patches(text):
                c = classify(ptxt)
                if c:
                    items.append((path + "#" + label, ptxt.encode(), c))
        else:
            c = classify(text)
            if c:
                items.append((path, data, c))
            elif re.search(r"(?m)^kind:\s*(Cluster|ControlPlane|Workers|Machine)\s*$", text):
                for label, ptxt in omni_patches(text):
                    c = classify(ptxt)
                    if c:
                        items.append((path + "#" + label, ptxt.encode(), c))
        for rel, blob, (kind, templ) in items:
            dest = os.path.join(CORPUS, name, rel.replace("#", "__").replace("[", "_").replace("]", ""))
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            with open(dest, "wb") as f:
                f.write(blob)
            rows.append([name.replace("+", "/"), rel, kind, commit, date, "templated" if templ else "",
                         hashlib.sha256(blob).hexdigest()[:16], os.path.relpath(dest, CORPUS)])
    with open(os.path.join(CORPUS, f".rows-{name}.json"), "w") as f:
        json.dump(rows, f)
    print(f"{name}: {len(rows)} files ({sum(r[2]=='full' for r in rows)} full, {sum(r[2]=='patch' for r in rows)} patch, {sum(r[2]=='json6902' for r in rows)} json6902) {date}")

main()
