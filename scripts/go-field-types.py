#!/usr/bin/env python3
"""Extract the Go field-type inventory of every Talos config document kind.

Reads Go sources straight from the bare git mirror at a fixed tag (Go is not
needed), parses struct/type/method declarations with a small hand-written Go
tokenizer + parser, walks every registered config document root struct and
writes one TSV row per YAML-visible field (see gotypes_README.md).

Usage: TALOS_GIT_DIR=<bare clone of siderolabs/talos> CRYPTO_GIT_DIR=<bare clone of
siderolabs/crypto> python3 scripts/go-field-types.py [--tag v1.13.9] [--out gotypes.tsv]

The test table talos-config/tests/engine/data/go_field_types.tsv is this output with the rows a
decode probe can reach (see its header).
"""

import argparse
import json
import os
import re
import subprocess
import sys
from collections import OrderedDict

GIT_DIR = os.environ.get("TALOS_GIT_DIR", "talos.git")
MODULE = "github.com/siderolabs/talos/pkg/machinery"
MODULE_DIR = "pkg/machinery"

# ---------------------------------------------------------------------------
# git access
# ---------------------------------------------------------------------------


def git(*args):
    return subprocess.run(["git", "--git-dir=" + GIT_DIR, *args], check=True,
                          capture_output=True).stdout.decode("utf-8")


# ---------------------------------------------------------------------------
# tokenizer (with Go automatic semicolon insertion)
# ---------------------------------------------------------------------------

TOK_RE = re.compile(r"""
    (?P<ws>[ \t\r]+)
  | (?P<nl>\n)
  | (?P<lcomment>//[^\n]*)
  | (?P<bcomment>/\*.*?\*/)
  | (?P<raw>`[^`]*`)
  | (?P<str>"(?:[^"\\\n]|\\.)*")
  | (?P<rune>'(?:[^'\\\n]|\\.[^']*)')
  | (?P<num>\.?[0-9][0-9a-zA-Z_.]*(?:[eEpP][+-][0-9a-fA-F_]+)?)
  | (?P<ident>[A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)
  | (?P<op>\.\.\.|<<=|>>=|&\^=|&&|\|\||<-|\+\+|--|==|!=|<=|>=|:=|\+=|-=|\*=|/=|%=|&=|\|=|\^=|<<|>>|&\^|~|[-+*/%&|^<>=!()\[\]{},;.:])
""", re.X | re.S)

SEMI_AFTER_KW = {"break", "continue", "fallthrough", "return"}


class Tok:
    __slots__ = ("kind", "val", "line")

    def __init__(self, kind, val, line):
        self.kind, self.val, self.line = kind, val, line

    def __repr__(self):
        return "%s:%r" % (self.kind, self.val)


def tokenize(src):
    toks = []
    pos, line = 0, 1
    n = len(src)

    def need_semi():
        if not toks:
            return False
        t = toks[-1]
        if t.kind in ("ident", "num", "str", "raw", "rune"):
            return True
        if t.kind == "op" and t.val in (")", "]", "}", "++", "--"):
            return True
        return False

    while pos < n:
        m = TOK_RE.match(src, pos)
        if not m:
            raise SyntaxError("cannot tokenize at line %d: %r" % (line, src[pos:pos + 30]))
        k = m.lastgroup
        v = m.group(k)
        pos = m.end()
        if k == "ws" or k == "lcomment":
            continue
        if k == "nl" or (k == "bcomment" and "\n" in v):
            if need_semi():
                toks.append(Tok("op", ";", line))
            line += v.count("\n")
            continue
        if k == "bcomment":
            continue
        if k == "ident" and v in SEMI_AFTER_KW:
            toks.append(Tok("kw", v, line))
            continue
        toks.append(Tok(k, v, line))
    if need_semi():
        toks.append(Tok("op", ";", line))
    toks.append(Tok("eof", "", line))
    return toks


def go_unquote(tok):
    """Value of a Go string literal token."""
    if tok.kind == "raw":
        return tok.val[1:-1].replace("\r", "")
    s = tok.val[1:-1]
    out = []
    i = 0
    simple = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t",
              "v": "\v", "\\": "\\", "'": "'", '"': '"'}
    while i < len(s):
        c = s[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        c2 = s[i + 1]
        if c2 in simple:
            out.append(simple[c2])
            i += 2
        elif c2 == "x":
            out.append(chr(int(s[i + 2:i + 4], 16)))
            i += 4
        elif c2 == "u":
            out.append(chr(int(s[i + 2:i + 6], 16)))
            i += 6
        elif c2 == "U":
            out.append(chr(int(s[i + 2:i + 10], 16)))
            i += 10
        else:  # octal
            out.append(chr(int(s[i + 1:i + 4], 8)))
            i += 4
    return "".join(out)


def go_quote(s):
    """strconv.Quote for printable ASCII/UTF-8 text (enough for struct tags)."""
    out = ['"']
    for ch in s:
        o = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\a":
            out.append("\\a")
        elif ch == "\b":
            out.append("\\b")
        elif ch == "\f":
            out.append("\\f")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\v":
            out.append("\\v")
        elif o < 0x20 or o == 0x7f:
            out.append("\\x%02x" % o)
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def struct_tag_get(tag, key):
    """reflect.StructTag.Lookup."""
    t = tag
    while t:
        i = 0
        while i < len(t) and t[i] == " ":
            i += 1
        t = t[i:]
        if not t:
            break
        i = 0
        while i < len(t) and t[i] > " " and t[i] != ":" and t[i] != '"' and ord(t[i]) != 0x7f:
            i += 1
        if i == 0 or i + 1 >= len(t) or t[i] != ":" or t[i + 1] != '"':
            break
        name = t[:i]
        t = t[i + 1:]
        i = 1
        while i < len(t) and t[i] != '"':
            if t[i] == "\\":
                i += 1
            i += 1
        if i >= len(t):
            break
        qvalue = t[:i + 1]
        t = t[i + 1:]
        if key == name:
            return go_unquote(Tok("str", qvalue, 0)), True
    return "", False


# ---------------------------------------------------------------------------
# type AST
# ---------------------------------------------------------------------------
# ("named", qual, name, [typeargs])   qual = package alias or None
# ("ptr", T) ("slice", T) ("array", lenstr, T) ("map", K, V) ("chan", dir, T)
# ("struct", [Field]) ("iface", text) ("func", text)
# Field = dict(names=[...] or None for embedded, type=T, tag=str|None)


class Parser:
    def __init__(self, toks, fname):
        self.t = toks
        self.i = 0
        self.fname = fname

    def peek(self, k=0):
        return self.t[self.i + k]

    def next(self):
        tok = self.t[self.i]
        self.i += 1
        return tok

    def is_op(self, v, k=0):
        tok = self.peek(k)
        return tok.kind == "op" and tok.val == v

    def expect_op(self, v):
        tok = self.next()
        if tok.kind != "op" or tok.val != v:
            raise SyntaxError("%s:%d: expected %r got %r" % (self.fname, tok.line, v, tok))
        return tok

    def skip_semis(self):
        while self.is_op(";"):
            self.i += 1

    def skip_balanced(self):
        """Skip a balanced (...) / [...] / {...} group starting at current token."""
        pairs = {"(": ")", "[": "]", "{": "}"}
        stack = []
        start = self.next()
        assert start.val in pairs, start
        stack.append(pairs[start.val])
        while stack:
            tok = self.next()
            if tok.kind == "eof":
                raise SyntaxError("unbalanced in " + self.fname)
            if tok.kind == "op":
                if tok.val in pairs:
                    stack.append(pairs[tok.val])
                elif tok.val in (")", "]", "}"):
                    if tok.val != stack[-1]:
                        raise SyntaxError("%s:%d mismatched %s" % (self.fname, tok.line, tok.val))
                    stack.pop()

    def skip_to_semi(self):
        while True:
            tok = self.peek()
            if tok.kind == "eof":
                return
            if tok.kind == "op" and tok.val in ("(", "[", "{"):
                self.skip_balanced()
                continue
            self.i += 1
            if tok.kind == "op" and tok.val == ";":
                return

    # -- types ------------------------------------------------------------
    def parse_type(self):
        tok = self.peek()
        if tok.kind == "op":
            if tok.val == "*":
                self.next()
                return ("ptr", self.parse_type())
            if tok.val == "(":
                self.next()
                t = self.parse_type()
                self.expect_op(")")
                return t
            if tok.val == "[":
                self.next()
                if self.is_op("]"):
                    self.next()
                    return ("slice", self.parse_type())
                # array length expression
                parts = []
                depth = 0
                while True:
                    x = self.next()
                    if x.kind == "op" and x.val in "([{":
                        depth += 1
                    if x.kind == "op" and x.val in ")]}":
                        if depth == 0 and x.val == "]":
                            break
                        depth -= 1
                    parts.append(x.val)
                return ("array", "".join(parts), self.parse_type())
            if tok.val == "<-":
                self.next()
                self.next()  # chan
                return ("chan", "<-chan ", self.parse_type())
        if tok.kind == "ident":
            if tok.val == "map":
                self.next()
                self.expect_op("[")
                k = self.parse_type()
                self.expect_op("]")
                return ("map", k, self.parse_type())
            if tok.val == "chan":
                self.next()
                if self.is_op("<-"):
                    self.next()
                    return ("chan", "chan<- ", self.parse_type())
                return ("chan", "chan ", self.parse_type())
            if tok.val == "struct":
                self.next()
                return self.parse_struct_body()
            if tok.val == "interface":
                self.next()
                start = self.i
                self.skip_balanced()
                body = " ".join(x.val for x in self.t[start + 1:self.i - 1] if x.val != ";").strip()
                return ("iface", body)
            if tok.val == "func":
                self.next()
                start = self.i
                self.skip_balanced()  # params
                # optional result
                if self.is_op("("):
                    self.skip_balanced()
                elif self.peek().kind == "ident" or self.is_op("*") or self.is_op("["):
                    self.parse_type()
                return ("func", " ".join(x.val for x in self.t[start:self.i]))
            self.next()
            qual, name = None, tok.val
            if self.is_op(".") and self.peek(1).kind == "ident":
                self.next()
                qual, name = tok.val, self.next().val
            args = []
            if self.is_op("[") and not self.is_op("]", 1):
                # generic instantiation (in type context this is unambiguous)
                self.next()
                while True:
                    args.append(self.parse_type())
                    if self.is_op(","):
                        self.next()
                        continue
                    self.expect_op("]")
                    break
            return ("named", qual, name, args)
        raise SyntaxError("%s:%d: unexpected %r in type" % (self.fname, tok.line, tok))

    def parse_struct_body(self):
        self.expect_op("{")
        fields = []
        while True:
            self.skip_semis()
            if self.is_op("}"):
                self.next()
                break
            tok = self.peek()
            embedded = False
            if tok.kind == "op" and tok.val == "*":
                embedded = True
            elif tok.kind == "ident":
                nxt = self.peek(1)
                if nxt.kind == "op" and nxt.val in (";", "}", "."):
                    embedded = True
                elif nxt.kind in ("str", "raw"):
                    embedded = True
            if embedded:
                typ = self.parse_type()
                names = None
            else:
                names = [self.next().val]
                while self.is_op(","):
                    self.next()
                    names.append(self.next().val)
                typ = self.parse_type()
            tag = None
            if self.peek().kind in ("str", "raw"):
                tag = go_unquote(self.next())
            fields.append({"names": names, "type": typ, "tag": tag})
        return ("struct", fields)


class GoFile:
    def __init__(self, path, src):
        self.path = path
        self.pkg = None
        self.imports = {}  # alias -> path
        self.types = OrderedDict()  # name -> dict(alias=bool, type=AST, tparams=[...])
        self.methods = []  # (recv type name, ptr, method name, signature text)
        self.build = None
        m = re.search(r"^//go:build (.*)$", src, re.M)
        if m:
            self.build = m.group(1).strip()
        self.parse(tokenize(src))

    def parse(self, toks):
        p = Parser(toks, self.path)
        p.skip_semis()
        assert p.next().val == "package"
        self.pkg = p.next().val
        while True:
            p.skip_semis()
            tok = p.peek()
            if tok.kind == "eof":
                break
            if tok.kind == "ident" and tok.val == "import":
                p.next()
                if p.is_op("("):
                    p.next()
                    while True:
                        p.skip_semis()
                        if p.is_op(")"):
                            p.next()
                            break
                        self._import_spec(p)
                else:
                    self._import_spec(p)
                continue
            if tok.kind == "ident" and tok.val == "type":
                p.next()
                if p.is_op("("):
                    p.next()
                    while True:
                        p.skip_semis()
                        if p.is_op(")"):
                            p.next()
                            break
                        self._type_spec(p)
                else:
                    self._type_spec(p)
                continue
            if tok.kind == "ident" and tok.val == "func":
                p.next()
                recv = None
                if p.is_op("("):
                    # receiver
                    start = p.i
                    p.skip_balanced()
                    rt = [x for x in toks[start + 1:p.i - 1]]
                    vals = [x.val for x in rt]
                    ptr = "*" in vals
                    # receiver type name: identifier after optional name and '*'
                    names = [x.val for x in rt if x.kind == "ident"]
                    # forms: (T) (*T) (x T) (x *T) (x T[K]) ...
                    if "[" in vals:
                        vals = vals[:vals.index("[")]
                        names = [v for v in vals if re.match(r"^[A-Za-z_]\w*$", v)]
                    recv = (names[-1], ptr)
                name = p.next().val
                sig_start = p.i
                # type params on functions
                if p.is_op("["):
                    p.skip_balanced()
                p.skip_balanced()  # params
                # results
                while True:
                    tk = p.peek()
                    if tk.kind == "op" and tk.val == "{":
                        break
                    if tk.kind == "op" and tk.val == ";":
                        break
                    if tk.kind == "op" and tk.val in ("(", "["):
                        p.skip_balanced()
                        continue
                    if tk.kind == "ident" and tk.val in ("interface", "struct"):
                        p.next()
                        p.skip_balanced()
                        continue
                    p.next()
                sig = pretty_tokens(toks[sig_start:p.i])
                if p.is_op("{"):
                    p.skip_balanced()
                if recv:
                    self.methods.append((recv[0], recv[1], name, sig))
                continue
            if tok.kind == "ident" and tok.val in ("var", "const"):
                p.next()
                if p.is_op("("):
                    p.skip_balanced()
                else:
                    p.skip_to_semi()
                continue
            raise SyntaxError("%s:%d: unexpected top-level %r" % (self.path, tok.line, tok))

    def _import_spec(self, p):
        tok = p.next()
        alias = None
        if tok.kind in ("ident",) or (tok.kind == "op" and tok.val == "."):
            alias = tok.val
            tok = p.next()
        path = go_unquote(tok)
        if alias is None:
            alias = default_pkg_name(path)
        self.imports[alias] = path

    def _type_spec(self, p):
        name = p.next().val
        tparams = []
        if p.is_op("[") and p.peek(1).kind == "ident" and not p.is_op("]", 2):
            # type parameters
            start = p.i
            p.skip_balanced()
            inner = toks_text = [x for x in p.t[start + 1:p.i - 1]]
            # names are idents followed by a constraint; take identifiers before each constraint
            cur = []
            depth = 0
            for x in inner:
                if x.kind == "op" and x.val in "([{":
                    depth += 1
                if x.kind == "op" and x.val in ")]}":
                    depth -= 1
                if depth == 0 and x.kind == "op" and x.val == ",":
                    cur.append(",")
                    continue
                cur.append(x.val)
            # crude: first ident of each comma-separated chunk
            chunk_start = True
            for v in cur:
                if v == ",":
                    chunk_start = True
                    continue
                if chunk_start:
                    tparams.append(v)
                    chunk_start = False
            del toks_text
        alias = False
        if p.is_op("="):
            p.next()
            alias = True
        typ = p.parse_type()
        self.types[name] = {"alias": alias, "type": typ, "tparams": tparams, "file": self.path}


def pretty_tokens(toks):
    """Readable Go source text of a token run (method signatures for the README)."""
    t = " ".join(x.val for x in toks)
    t = re.sub(r"([(\[.*]) ", r"\1", t)
    t = re.sub(r" ([)\],.\]])", r"\1", t)
    t = re.sub(r"\.\.\. ", "...", t)
    t = re.sub(r"\bfunc \(", "func(", t)
    t = t.replace("[] ", "[]")
    t = re.sub(r"^(\w+) \(", r"\1(", t)
    return t


def default_pkg_name(path):
    """Package name guessed from import path (handles /vN suffixes and yaml.vN)."""
    KNOWN = {
        "go.yaml.in/yaml/v4": "yaml",
        "gopkg.in/yaml.v3": "yaml",
        "github.com/siderolabs/go-pointer": "pointer",
        "github.com/blang/semver/v4": "semver",
        "github.com/hashicorp/go-multierror": "multierror",
        "github.com/dustin/go-humanize": "humanize",
        "github.com/opencontainers/runtime-spec/specs-go": "specs",
        "github.com/google/cel-go/cel": "cel",
        "github.com/jsimonetti/rtnetlink/v2": "rtnetlink",
        "github.com/santhosh-tekuri/jsonschema/v6": "jsonschema",
        "github.com/evanphx/json-patch": "jsonpatch",
    }
    if path in KNOWN:
        return KNOWN[path]
    parts = path.split("/")
    last = parts[-1]
    if re.match(r"^v\d+$", last) and len(parts) > 1:
        last = parts[-2]
    last = re.sub(r"\.v\d+$", "", last)
    last = last.replace("-", "")
    return last


# ---------------------------------------------------------------------------
# packages
# ---------------------------------------------------------------------------

class Package:
    def __init__(self, path, name):
        self.path = path
        self.name = name
        self.types = {}  # name -> spec (+ "gofile")
        self.methods = {}  # type name -> list of (ptr, mname, sig)
        self.files = []


# Hand-written descriptions of external (non-mirror) packages that are reached.
# Each type: underlying AST in that package's context, plus method list.
def _named(q, n, a=None):
    return ("named", q, n, a or [])


EXTERNAL = {
    "net/netip": ("netip", {
        # struct { addr uint128; z unique.Handle[addrDetail] } -- only unexported fields
        "Addr": {"type": ("struct", [{"names": ["addr"], "type": _named(None, "uint128"), "tag": None},
                                     {"names": ["z"], "type": _named(None, "zHandle"), "tag": None}]),
                 "methods": [(True, "UnmarshalText", "(text []byte) error"),
                             (True, "UnmarshalBinary", "(b []byte) error")]},
        "Prefix": {"type": ("struct", [{"names": ["ip"], "type": _named(None, "Addr"), "tag": None},
                                       {"names": ["bitsPlusOne"], "type": _named(None, "uint8"), "tag": None}]),
                   "methods": [(True, "UnmarshalText", "(text []byte) error"),
                               (True, "UnmarshalBinary", "(b []byte) error")]},
        "uint128": {"type": ("struct", [{"names": ["hi"], "type": _named(None, "uint64"), "tag": None},
                                        {"names": ["lo"], "type": _named(None, "uint64"), "tag": None}]),
                    "methods": []},
        # really unique.Handle[addrDetail]; irrelevant (unexported field), kept opaque
        "zHandle": {"type": ("struct", []), "methods": []},
        "AddrPort": {"type": ("struct", [{"names": ["ip"], "type": _named(None, "Addr"), "tag": None},
                                         {"names": ["port"], "type": _named(None, "uint16"), "tag": None}]),
                     "methods": [(True, "UnmarshalText", "(text []byte) error"),
                                 (True, "UnmarshalBinary", "(b []byte) error")]},
    }),
    "net": ("net", {
        # type HardwareAddr []byte ; methods: String() only
        "HardwareAddr": {"type": ("slice", _named(None, "byte")), "methods": [(False, "String", "() string")]},
    }),
    "os": ("os", {
        # os.FileMode is an alias: type FileMode = fs.FileMode
        "FileMode": {"alias_of": ("io/fs", "FileMode")},
    }),
    "io/fs": ("fs", {
        # type FileMode uint32 ; no Unmarshal* methods
        "FileMode": {"type": _named(None, "uint32"),
                     "methods": [(False, "String", "() string"), (False, "IsDir", "() bool"),
                                 (False, "IsRegular", "() bool"), (False, "Perm", "() FileMode"),
                                 (False, "Type", "() FileMode")]},
    }),
    "github.com/google/cel-go/cel": ("cel", {
        # only referenced by the unexported field cel.Expression.ast (*cel.Ast); opaque here
        "Ast": {"type": ("struct", []), "methods": []},
    }),
    "time": ("time", {
        "Duration": {"type": _named(None, "int64"), "methods": []},
    }),
    "net/url": ("url", {
        "URL": {"type": ("struct", [
            {"names": ["Scheme"], "type": _named(None, "string"), "tag": None},
            {"names": ["Opaque"], "type": _named(None, "string"), "tag": None},
            {"names": ["User"], "type": ("ptr", _named(None, "Userinfo")), "tag": None},
            {"names": ["Host"], "type": _named(None, "string"), "tag": None},
            {"names": ["Path"], "type": _named(None, "string"), "tag": None},
            {"names": ["RawPath"], "type": _named(None, "string"), "tag": None},
            {"names": ["OmitHost"], "type": _named(None, "bool"), "tag": None},
            {"names": ["ForceQuery"], "type": _named(None, "bool"), "tag": None},
            {"names": ["RawQuery"], "type": _named(None, "string"), "tag": None},
            {"names": ["Fragment"], "type": _named(None, "string"), "tag": None},
            {"names": ["RawFragment"], "type": _named(None, "string"), "tag": None},
        ]), "methods": [(True, "UnmarshalBinary", "(text []byte) error")]},
        "Userinfo": {"type": ("struct", [
            {"names": ["username"], "type": _named(None, "string"), "tag": None},
            {"names": ["password"], "type": _named(None, "string"), "tag": None},
            {"names": ["passwordSet"], "type": _named(None, "bool"), "tag": None},
        ]), "methods": []},
    }),
}

# Packages read from other bare mirrors: import-path prefix -> (git dir, rev, doubt note)
EXTERNAL_GIT = {
    "github.com/siderolabs/crypto": (
        os.environ.get("CRYPTO_GIT_DIR", "crypto.git"), "v0.6.4",
        "resolved from siderolabs/crypto v0.6.4 (go.mod wants v0.6.5, not in the local mirror)"),
}

BUILTINS = {
    "bool", "string", "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16",
    "uint32", "uint64", "uintptr", "float32", "float64", "complex64", "complex128", "error",
    "byte", "rune", "any",
}


class Universe:
    def __init__(self, tag):
        self.tag = tag
        self.pkgs = {}
        self.unresolved = set()
        all_files = git("ls-tree", "-r", "--name-only", tag, MODULE_DIR).split("\n")
        self.dir_files = {}
        for f in all_files:
            if not f.endswith(".go") or f.endswith("_test.go"):
                continue
            d = f.rsplit("/", 1)[0]
            self.dir_files.setdefault(d, []).append(f)
        self.doubtful_pkgs = {}  # import path -> note
        self.extra_sources = {}  # import path -> list of (fname, src) supplied from other mirrors

    def add_external_source(self, import_path, fname, src):
        self.extra_sources.setdefault(import_path, []).append((fname, src))

    def pkg(self, path):
        if path in self.pkgs:
            return self.pkgs[path]
        if path in EXTERNAL:
            name, types = EXTERNAL[path]
            pk = Package(path, name)
            for tn, spec in types.items():
                if "alias_of" in spec:
                    apath, aname = spec["alias_of"]
                    pk.types[tn] = {"alias": True, "type": ("named", "__path__:" + apath, aname, []),
                                    "tparams": [], "gofile": None, "file": "(hand-written stdlib/external description)"}
                    pk.methods[tn] = []
                    continue
                pk.types[tn] = {"alias": False, "type": spec["type"], "tparams": [], "gofile": None,
                                "file": "(hand-written stdlib/external description)"}
                pk.methods[tn] = list(spec["methods"])
            self.pkgs[path] = pk
            return pk
        sources = []
        if path.startswith(MODULE + "/") or path == MODULE:
            d = MODULE_DIR + path[len(MODULE):]
            for f in self.dir_files.get(d, []):
                sources.append((f, git("show", "%s:%s" % (self.tag, f))))
        elif any(path.startswith(pfx) for pfx in EXTERNAL_GIT):
            pfx = [pfx for pfx in EXTERNAL_GIT if path.startswith(pfx)][0]
            gdir, rev, note = EXTERNAL_GIT[pfx]
            sub = path[len(pfx):].lstrip("/")
            names = subprocess.run(["git", "--git-dir=" + gdir, "ls-tree", "--name-only", rev, sub + "/"],
                                   check=True, capture_output=True).stdout.decode().split()
            for f in names:
                if f.endswith(".go") and not f.endswith("_test.go"):
                    src = subprocess.run(["git", "--git-dir=" + gdir, "show", "%s:%s" % (rev, f)],
                                         check=True, capture_output=True).stdout.decode()
                    sources.append((pfx + "/" + f, src))
            self.doubtful_pkgs[path] = note
        elif path in self.extra_sources:
            sources = self.extra_sources[path]
        else:
            self.pkgs[path] = None
            return None
        pk = None
        for fname, src in sources:
            gf = GoFile(fname, src)
            if gf.build and not build_ok(gf.build):
                continue
            if pk is None:
                pk = Package(path, gf.pkg)
            if gf.pkg != pk.name:
                continue  # e.g. package main helpers / docs
            pk.files.append(gf)
            for tn, spec in gf.types.items():
                if tn in pk.types:
                    raise RuntimeError("duplicate type %s in %s" % (tn, path))
                spec = dict(spec)
                spec["gofile"] = gf
                pk.types[tn] = spec
            for recv, ptr, mname, sig in gf.methods:
                pk.methods.setdefault(recv, []).append((ptr, mname, sig))
        self.pkgs[path] = pk
        return pk


def build_ok(expr):
    """Evaluate a //go:build expression for linux/amd64, no special tags."""
    true_tags = {"linux", "amd64", "unix", "gc", "go1.26"}
    py = expr.replace("&&", " and ").replace("||", " or ").replace("!", " not ")

    def rep(m):
        w = m.group(0)
        if w in ("and", "or", "not"):
            return w
        if re.match(r"^go1\.\d+$", w):
            return "True"
        return "True" if w in true_tags else "False"

    py = re.sub(r"[A-Za-z0-9_.]+", rep, py)
    return eval(py)


# ---------------------------------------------------------------------------
# resolved types
# ---------------------------------------------------------------------------
# A resolved type ("RT") is a tuple:
#   ("basic", name)
#   ("named", pkgpath, pkgname, name, (typeargs RT...))
#   ("ptr", RT) ("slice", RT) ("array", n, RT) ("map", K, V) ("chan", dir, RT)
#   ("struct", (RField...), pkgpath)  RField = (name or None-embedded, RT, tag, embedded_name)
#   ("iface", text) ("func", text) ("typeparam", name)


class Resolver:
    def __init__(self, uni):
        self.uni = uni
        self.notes = []
        self.aliases = {}

    def resolve(self, ast, pkg, gofile, subst=None):
        """Resolve a type AST from package pkg / file gofile into an RT."""
        k = ast[0]
        if k == "ptr":
            return ("ptr", self.resolve(ast[1], pkg, gofile, subst))
        if k == "slice":
            return ("slice", self.resolve(ast[1], pkg, gofile, subst))
        if k == "array":
            return ("array", ast[1], self.resolve(ast[2], pkg, gofile, subst))
        if k == "map":
            return ("map", self.resolve(ast[1], pkg, gofile, subst), self.resolve(ast[2], pkg, gofile, subst))
        if k == "chan":
            return ("chan", ast[1], self.resolve(ast[2], pkg, gofile, subst))
        if k == "iface":
            return ("iface", ast[1])
        if k == "func":
            return ("func", ast[1])
        if k == "struct":
            fields = []
            for f in ast[1]:
                rt = self.resolve(f["type"], pkg, gofile, subst)
                if f["names"] is None:
                    t = f["type"]
                    while t[0] == "ptr":
                        t = t[1]
                    ename = t[2] if t[0] == "named" else "?"
                    fields.append((ename, rt, f["tag"], True))
                else:
                    for nm in f["names"]:
                        fields.append((nm, rt, f["tag"], False))
            return ("struct", tuple(fields), pkg.path)
        if k == "named":
            _, qual, name, args = ast
            rargs = tuple(self.resolve(a, pkg, gofile, subst) for a in args)
            if qual is None:
                if subst and name in subst:
                    return subst[name]
                if name in pkg.types:
                    return self.named(pkg, name, rargs)
                if name in BUILTINS:
                    return ("basic", {"byte": "uint8", "rune": "int32"}.get(name, name))
                self.uni.unresolved.add("%s.%s" % (pkg.path, name))
                return ("unresolved", "%s.%s" % (pkg.name, name))
            if qual.startswith("__path__:"):
                ipath = qual[len("__path__:"):]
            else:
                ipath = gofile.imports.get(qual) if gofile else None
            if ipath is None:
                self.uni.unresolved.add("%s: unknown qualifier %s.%s" % (pkg.path, qual, name))
                return ("unresolved", "%s.%s" % (qual, name))
            opk = self.uni.pkg(ipath)
            if opk is None or name not in opk.types:
                self.uni.unresolved.add("%s.%s" % (ipath, name))
                return ("unresolved_named", ipath, qual, name)
            return self.named(opk, name, rargs)
        raise ValueError(ast)

    def named(self, pk, name, rargs):
        spec = pk.types[name]
        if spec["alias"]:
            subst = dict(zip(spec["tparams"], rargs)) if spec["tparams"] else None
            target = self.resolve(spec["type"], pk, spec["gofile"], subst)
            self.aliases["%s.%s (%s)" % (pk.name, name, pk.path)] = (type_string(target), spec.get("file"))
            return target
        return ("named", pk.path, pk.name, name, rargs)

    def underlying(self, rt):
        """Underlying type (RT) of a named type."""
        while rt[0] == "named":
            pk = self.uni.pkg(rt[1])
            spec = pk.types[rt[3]]
            subst = dict(zip(spec["tparams"], rt[4])) if spec["tparams"] else None
            rt = self.resolve(spec["type"], pk, spec["gofile"], subst)
        return rt

    # -- methods ----------------------------------------------------------
    def method_sets(self, rt, seen=None):
        """Methods (name -> (ptr_needed, sig, origin)) of T and *T for RT (non-pointer)."""
        out = {}
        if seen is None:
            seen = set()
        if rt[0] == "named":
            key = (rt[1], rt[3])
            if key in seen:
                return out
            seen = seen | {key}
            pk = self.uni.pkg(rt[1])
            for ptr, mname, sig in pk.methods.get(rt[3], []):
                out[mname] = (ptr, sig, "%s.%s" % (rt[2], rt[3]))
        under = self.underlying(rt) if rt[0] == "named" else rt
        if under[0] == "struct":
            # promoted methods through embedded fields (depth 1 wins over deeper)
            for fname, frt, tag, emb in under[1]:
                if not emb:
                    continue
                base, isptr = frt, False
                if base[0] == "ptr":
                    base, isptr = base[1], True
                if base[0] not in ("named",):
                    continue
                for mname, (ptr, sig, origin) in self.method_sets(base, seen).items():
                    if mname in out:
                        continue
                    # via *E embedded, all methods are in T's set; via E, ptr methods need *T
                    out[mname] = (ptr and not isptr, sig, origin + " (promoted via embedded %s)" % fname)
        return out


# ---------------------------------------------------------------------------
# reflect.Type.String()
# ---------------------------------------------------------------------------

def type_string(rt, for_typearg=False):
    k = rt[0]
    if k == "basic":
        return "interface {}" if rt[1] == "any" else rt[1]
    if k == "named":
        base = "%s.%s" % (rt[1] if for_typearg else rt[2], rt[3])
        if rt[4]:
            base += "[" + ",".join(type_string(a, True) for a in rt[4]) + "]"
        return base
    if k == "ptr":
        return "*" + type_string(rt[1], for_typearg)
    if k == "slice":
        return "[]" + type_string(rt[1], for_typearg)
    if k == "array":
        return "[%s]" % rt[1] + type_string(rt[2], for_typearg)
    if k == "map":
        return "map[%s]%s" % (type_string(rt[1], for_typearg), type_string(rt[2], for_typearg))
    if k == "chan":
        return rt[1] + type_string(rt[2], for_typearg)
    if k == "struct":
        if not rt[1]:
            return "struct {}"
        parts = []
        for fname, frt, tag, emb in rt[1]:
            s = type_string(frt, for_typearg) if emb else "%s %s" % (fname, type_string(frt, for_typearg))
            if tag:
                s += " " + go_quote(tag)
            parts.append(" " + s)
        return "struct {" + ";".join(parts) + " }"
    if k == "iface":
        return "interface {}" if not rt[1].strip() else "interface { %s }" % rt[1]
    if k == "func":
        return "func" + rt[1]
    if k == "unresolved":
        return rt[1]
    if k == "unresolved_named":
        return "%s.%s" % (default_pkg_name(rt[1]), rt[3])
    raise ValueError(rt)


def iter_named(rt):
    """All named types mentioned in rt (not descending into struct fields)."""
    if rt[0] == "named":
        yield rt
        for a in rt[4]:
            yield from iter_named(a)
    elif rt[0] in ("ptr", "slice"):
        yield from iter_named(rt[1])
    elif rt[0] in ("array", "chan"):
        yield from iter_named(rt[2])
    elif rt[0] == "map":
        yield from iter_named(rt[1])
        yield from iter_named(rt[2])


def go_kind(res, rt):
    k = rt[0]
    if k == "named":
        return go_kind(res, res.underlying(rt))
    if k == "basic":
        return {"any": "interface", "error": "interface"}.get(rt[1], rt[1])
    return {"ptr": "ptr", "slice": "slice", "array": "array", "map": "map", "chan": "chan",
            "struct": "struct", "iface": "interface", "func": "func"}.get(k, "?")


# ---------------------------------------------------------------------------
# walker
# ---------------------------------------------------------------------------

class Walker:
    def __init__(self, res):
        self.res = res
        self.rows = []
        self.named_nonstruct = {}  # type string -> info
        self.anon_structs = {}  # type string -> [paths]
        self.custom_paths = []  # (kind, path, type, flags)
        self.notag = []

    def flags_for(self, rt):
        """Flags for the dereferenced type rt."""
        flags = []
        if rt[0] != "named":
            return flags
        ms = self.res.method_sets(rt)
        if "UnmarshalText" in ms:
            flags.append("textunmarshaler")
        if "UnmarshalYAML" in ms:
            sig = ms["UnmarshalYAML"][1]
            compact = re.sub(r"\s+", "", sig)
            if "func(" in compact:
                flags.append("yamlunmarshaler-func")
            elif "*yaml.Node" in compact:
                flags.append("yamlunmarshaler-node")
            else:
                flags.append("yamlunmarshaler-?(%s)" % sig)
        return flags

    def record_named(self, rt):
        if rt[0] != "named":
            return
        s = type_string(rt)
        if s in self.named_nonstruct:
            return
        under = self.res.underlying(rt)
        ms = self.res.method_sets(rt)
        pk = self.res.uni.pkg(rt[1])
        spec = pk.types[rt[3]]
        self.named_nonstruct[s] = {
            "underlying": type_string(under),
            "kind": go_kind(self.res, rt),
            "methods": {m: ("*" if v[0] else "") + "%s%s" % (m, v[1]) + (" [from %s]" % v[2] if "promoted" in v[2] else "")
                        for m, v in sorted(ms.items())},
            "file": spec.get("file"),
            "is_struct": under[0] == "struct",
        }

    def walk_type(self, kind, path, rt, stack, under_custom, extra_flags=(), doubt=None):
        """Emit row for path of declared type rt, then recurse."""
        deref = rt
        while deref[0] == "ptr":
            deref = deref[1]
        flags = list(extra_flags) + self.flags_for(deref)
        key = None
        if deref[0] == "named":
            key = (deref[1], deref[3], deref[4])
        recursive = key is not None and key in stack
        if recursive:
            flags.append("recursive")
        if under_custom:
            flags.append("under-unmarshaler")
        if deref[0] in ("unresolved", "unresolved_named"):
            doubt = (doubt + "; " if doubt else "") + "type not resolved"
        for t in iter_named(rt):
            note = self.res.uni.doubtful_pkgs.get(t[1])
            if note and note not in (doubt or ""):
                doubt = (doubt + "; " if doubt else "") + note
        row = [kind, path, type_string(rt), type_string(deref),
               go_kind(self.res, deref) if deref[0] not in ("unresolved", "unresolved_named") else "?",
               ",".join(flags)]
        if doubt:
            row.append("? " + doubt)
        self.rows.append(row)
        if any(f.startswith("yamlunmarshaler") or f == "textunmarshaler" for f in flags):
            self.custom_paths.append((kind, path, type_string(deref), ",".join(flags), under_custom))
        self.record_named(deref)
        if deref[0] in ("unresolved", "unresolved_named") or recursive:
            return
        new_stack = stack | {key} if key else stack
        # go-yaml v4.0.0-rc.4: UnmarshalYAML types decode themselves, and TextUnmarshaler types
        # reject non-scalar nodes (Constructor.Construct), so no descendant is decoded field-wise.
        child_under_custom = under_custom or any(f.startswith("yamlunmarshaler") or f == "textunmarshaler"
                                                 for f in flags)
        self.walk_children(kind, path, deref, new_stack, child_under_custom)

    def walk_children(self, kind, path, rt, stack, under_custom):
        under = self.res.underlying(rt) if rt[0] == "named" else rt
        if under[0] == "ptr":
            # named pointer type: recurse into element
            self.walk_type(kind, path + "*", under[1], stack, under_custom)
            return
        if under[0] in ("slice", "array"):
            self.walk_type(kind, path + "[]", under[-1], stack, under_custom)
        elif under[0] == "map":
            self.walk_type(kind, path + "{}", under[2], stack, under_custom)
        elif under[0] == "struct":
            if rt[0] == "struct":
                self.anon_structs.setdefault(type_string(rt), []).append("%s %s" % (kind, path))
            self.walk_fields(kind, path, under, stack, under_custom)

    def walk_fields(self, kind, path, st, stack, under_custom):
        prefix = path + "." if path else ""
        for fname, frt, tag, emb in st[1]:
            exported = fname[:1].isupper()
            if not exported and not emb:
                continue
            tag = tag or ""
            ytag, ok = struct_tag_get(tag, "yaml")
            if not ok and ":" not in tag:
                ytag = tag  # go-yaml legacy: whole tag
            if ytag == "-":
                continue
            parts = ytag.split(",")
            key, opts = parts[0], parts[1:]
            if "inline" in opts:
                deref = frt
                while deref[0] == "ptr":
                    deref = deref[1]
                under = self.res.underlying(deref) if deref[0] == "named" else deref
                iflags = ["inline"] + self.flags_for(deref) + (["under-unmarshaler"] if under_custom else [])
                row = [kind, "%s(%s)" % (prefix, fname), type_string(frt), type_string(deref),
                       go_kind(self.res, deref), ",".join(iflags)]
                self.rows.append(row)
                self.record_named(deref)
                if under[0] == "struct":
                    k2 = (deref[1], deref[3], deref[4]) if deref[0] == "named" else None
                    self.walk_fields(kind, path, under, stack | ({k2} if k2 else set()), under_custom)
                elif under[0] == "map":
                    # keys of an inline map are the parent's unknown keys: path is parent + "{}"
                    self.walk_type(kind, path + "{}", under[2], stack, under_custom)
                continue
            doubt = None
            if not exported:
                # unexported embedded: go-yaml only considers it when inline; reflect would refuse
                continue
            if not key:
                key = fname.lower()
                if not ok:
                    doubt = "no yaml tag; go-yaml uses lowercased Go field name %r" % fname
                    self.notag.append((kind, prefix + key, type_string(frt), under_custom))
            self.walk_type(kind, prefix + key, frt, stack, under_custom, doubt=doubt)


# ---------------------------------------------------------------------------
# main
# ---------------------------------------------------------------------------

def find_kinds(uni, tag):
    """Locate registry.Register(...) calls and their root structs."""
    out = git("grep", "-n", "registry.Register(", tag, "--", MODULE_DIR + "/config/types")
    kinds = []
    for line in out.strip().split("\n"):
        _, fpath, lno, rest = line.split(":", 3)
        if fpath.endswith("_test.go"):
            continue
        src = git("show", "%s:%s" % (tag, fpath))
        lines = src.split("\n")
        lno = int(lno)
        m = re.search(r"registry\.Register\(([^,]+),", lines[lno - 1])
        kexpr = m.group(1).strip()
        body = "\n".join(lines[lno - 1:lno + 12])
        d = fpath.rsplit("/", 1)[0]
        ipath = MODULE + d[len(MODULE_DIR):]
        pk = uni.pkg(ipath)
        if kexpr.startswith('"'):
            kname = kexpr.strip('"')
        else:
            # resolve constant
            g = git("grep", "-h", "-E", r"^\s*(const\s+)?%s\s*=" % re.escape(kexpr), tag, "--", d)
            kname = re.search(r'=\s*"([^"]+)"', g).group(1)
        versions = re.findall(r'case\s+"([^"]+)"', body)
        roots = re.findall(r"return\s+&(\w+)\{\}", body)
        if kname == "v1alpha1":
            # legacy machine config: registered under its version, no kind
            kinds.append({"kind": "MachineConfig", "apiVersion": "v1alpha1", "pkg": ipath,
                          "root": roots[0], "file": fpath, "line": lno, "registered_as": '"v1alpha1"'})
            continue
        for v, r in zip(versions, roots):
            kinds.append({"kind": kname, "apiVersion": v, "pkg": ipath, "root": r, "file": fpath,
                          "line": lno, "registered_as": kexpr})
    return kinds


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tag", default="v1.13.9")
    ap.add_argument("--out", default="gotypes.tsv")
    ap.add_argument("--report", default="gotypes_report.json")
    ap.add_argument("--extra", default="external_src",
                    help="dir with extra Go sources: <dir>/<import path>/*.go")
    args = ap.parse_args()

    uni = Universe(args.tag)
    import os
    if os.path.isdir(args.extra):
        for root, _, files in os.walk(args.extra):
            for f in files:
                if f.endswith(".go") and not f.endswith("_test.go"):
                    ipath = os.path.relpath(root, args.extra)
                    with open(os.path.join(root, f)) as fh:
                        uni.add_external_source(ipath, os.path.join(ipath, f), fh.read())
    res = Resolver(uni)
    w = Walker(res)
    kinds = find_kinds(uni, args.tag)
    for k in kinds:
        pk = uni.pkg(k["pkg"])
        rt = res.named(pk, k["root"], ())
        kname = "%s/%s" % (k["apiVersion"], k["kind"])
        k["rootType"] = type_string(("ptr", rt))
        before = len(w.rows)
        w.record_named(rt)
        w.walk_children(kname, "", rt, {(rt[1], rt[3], rt[4])}, False)
        k["rows"] = len(w.rows) - before

    with open(args.out, "w") as fh:
        fh.write("# kind\tpath\tgo_type\tderef_type\tderef_kind\tflags\tdoubt\n")
        for r in w.rows:
            fh.write("\t".join(r) + "\n")

    report = {
        "tag": args.tag,
        "kinds": kinds,
        "unresolved": sorted(uni.unresolved),
        "named_types": w.named_nonstruct,
        "anonymous_structs": w.anon_structs,
        "custom_unmarshal_paths": w.custom_paths,
        "untagged_fields": w.notag,
        "aliases": res.aliases,
        "row_count": len(w.rows),
    }
    with open(args.report, "w") as fh:
        json.dump(report, fh, indent=1, default=str)
    print("kinds=%d rows=%d unresolved=%d" % (len(kinds), len(w.rows), len(uni.unresolved)), file=sys.stderr)
    for u in sorted(uni.unresolved):
        print("UNRESOLVED", u, file=sys.stderr)


if __name__ == "__main__":
    main()
