#!/usr/bin/env python3
"""Latency of `labctl lsp` diagnostics, measured as an editor sees it: the time from sending a
`textDocument/didChange` (one character typed, incremental sync) to receiving the
`textDocument/publishDiagnostics` it causes, over stdio.

Usage: scripts/bench-lsp.py LABCTL [RUNS]   (a release build: target/release/labctl)

Workloads:
  patch+5   the lab's step-8 patch, in a `.labctl.toml` project: fixtures/worker.yaml plus the
            five fixture patches 05..08 (the file typed in is one of them)
  10MiB     a 10.6 MiB config (W2 of BENCHMARKS.md: fixtures/controlplane.yaml with 110 inline
            manifests), typed in as a config
Prints the median and the 90th percentile per workload, in milliseconds.
"""
import json, os, shutil, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Server:
    def __init__(self, labctl):
        self.p = subprocess.Popen([labctl, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.id = 0
        self.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
        self.notify("initialized", {})

    def send(self, msg):
        body = json.dumps(msg).encode()
        self.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.p.stdin.flush()

    def receive(self):
        length = 0
        while True:
            line = self.p.stdout.readline().strip()
            if not line:
                break
            if line.startswith(b"Content-Length:"):
                length = int(line.split(b":")[1])
        return json.loads(self.p.stdout.read(length))

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method, params):
        self.id += 1
        self.send({"jsonrpc": "2.0", "id": self.id, "method": method, "params": params})
        while True:
            m = self.receive()
            if m.get("id") == self.id:
                return m

    def diagnostics(self):
        while True:
            m = self.receive()
            if m.get("method") == "textDocument/publishDiagnostics":
                return m

    def close(self):
        self.request("shutdown", None)
        self.notify("exit", None)
        self.p.wait()


def latency(labctl, uri, text, line, runs):
    s = Server(labctl)
    s.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}})
    s.diagnostics()
    times = []
    for i in range(runs):
        # Type a character at the end of a comment line, then take it back: the buffer stays valid.
        change = {"range": {"start": {"line": line, "character": 1}, "end": {"line": line, "character": 1 + (i % 2)}},
                  "text": "x" if i % 2 == 0 else ""}
        start = time.perf_counter()
        s.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": i + 2}, "contentChanges": [change]})
        s.diagnostics()
        times.append((time.perf_counter() - start) * 1000)
    s.close()
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.9) - 1]


def main():
    labctl, runs = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 50
    with tempfile.TemporaryDirectory() as d:
        for name in ["worker.yaml", "05-labels.yaml", "06-canary.yaml", "07-bad.yaml", "08-kubelet.yaml", "08-fix.yaml"]:
            src = os.path.join(ROOT, "fixtures", name)
            if os.path.exists(src):
                shutil.copy(src, d)
        patches = sorted(n for n in os.listdir(d) if n.startswith("0"))
        with open(os.path.join(d, ".labctl.toml"), "w") as f:
            f.write('[[config]]\nbase = "worker.yaml"\npatches = %s\n' % json.dumps(patches))
        text = "#\n" + open(os.path.join(d, "08-kubelet.yaml")).read()
        open(os.path.join(d, "08-kubelet.yaml"), "w").write(text)
        med, p90 = latency(labctl, "file://%s/08-kubelet.yaml" % d, text, 0, runs)
        print("patch+5 (worker + %d patches): median %.1f ms, p90 %.1f ms" % (len(patches), med, p90))
        subprocess.run(["cargo", "run", "-q", "--release", "-p", "talos-config", "--example", "perf-inputs", "--", d],
                       cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        big = os.path.join(d, "big-10.yaml")
        text = "#\n" + open(big).read()
        med, p90 = latency(labctl, "file://%s/big.yaml" % d, text, 0, max(5, runs // 5))
        print("10MiB (%.1f MiB config): median %.1f ms, p90 %.1f ms" % (len(text) / 2**20, med, p90))


main()
