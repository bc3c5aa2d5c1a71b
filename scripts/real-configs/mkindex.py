#!/usr/bin/env python3
"""Writes corpus/INDEX.tsv from the rows scan.py left (one file per repository)."""
import glob, json, os
rows = [r for f in sorted(glob.glob(os.path.join(os.environ.get('REALCFG_DIR', '/tmp/realcfg'), 'corpus/.rows-*.json'))) for r in json.load(open(f))]
rows.sort(key=lambda r: (r[0].lower(), r[1]))
first = {}
with open(os.path.join(os.environ.get('REALCFG_DIR', '/tmp/realcfg'), 'corpus/INDEX.tsv'), 'w') as f:
    f.write("repo\tpath\tkind\tcommit\tcommit_date\ttemplated\tsha256_16\tcorpus_file\tdup_of\n")
    for r in rows:
        dup = first.get(r[6], "")
        first.setdefault(r[6], r[7])
        f.write("\t".join(r + [dup]) + "\n")
print(len(rows), "files;", len({r[0] for r in rows}), "repos;", len(first), "unique;",
      {k: sum(1 for r in rows if r[2] == k) for k in ("full", "patch", "json6902")},
      "templated", sum(1 for r in rows if r[5]))
