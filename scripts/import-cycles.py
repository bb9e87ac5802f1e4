#!/usr/bin/env python3
"""Import circles between the files of a crate: file A uses an item of file B and B one of A.

    python3 scripts/import-cycles.py                    # every crate under crates/
    python3 scripts/import-cycles.py crates/bench crates/cli

For each target root of a crate (src/lib.rs, src/main.rs, src/bin/*.rs) it walks the `mod`
declarations to map modules to files, then reads every path a file names: `use` trees
(`crate::`, `super::`, `self::`, a child module's name) and paths written in the code
(`crate::observe::observer()`). A path leads to the file of the deepest module it names; a
name that module re-exports (`pub use run::{build, ...}`, `pub use measurement::BenchError`
in lib.rs) leads on to the file that defines it, and a `#[macro_export]` macro named from the
root (`$crate::with_dtype!`) to the file that defines it. `mod` declarations are not imports, so a
parent that declares a child is not a use of it. Comments (doc links included) are ignored;
`#[cfg(test)]` modules count like the rest of their file. Prints each circle (the files, and
for each step the path that makes it) and exits 1 if there is one.

Written here rather than `cargo modules dependencies --acyclic` (cargo-modules): that builds
rust-analyzer's crates (many minutes on a small machine) and must match the toolchain; this
reads the source text, which is enough for a check that runs on every commit.
"""

import os
import re
import sys

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"


def strip_comments(text):
    """The code without comments (doc links included) and with string and character literals
    emptied, so that braces and `//` inside them count for nothing."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith("//", i):
            i = text.find("\n", i)
            i = n if i < 0 else i
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
        elif text[i] == "r" and re.match(r'r#*"', text[i:]) and (i == 0 or not text[i - 1].isalnum()):
            hashes = re.match(r'r(#*)"', text[i:]).group(1)
            j = text.find('"' + hashes, i + len(hashes) + 2)
            out.append('""')
            i = n if j < 0 else j + 1 + len(hashes)
        elif text[i] == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append('""')
            i = j + 1
        elif re.match(r"'(?:\\.|[^'\\])'", text[i:]):
            out.append("' '")
            i += len(re.match(r"'(?:\\.|[^'\\])'", text[i:]).group(0))
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def inline_modules(text):
    """The inline modules (`mod tests { ... }`) of a file: (name, start, end) offsets."""
    spans = []
    for m in re.finditer(r"\bmod\s+(" + IDENT + r")\s*\{", text):
        depth, j = 0, m.end() - 1
        while j < len(text):
            if text[j] == "{":
                depth += 1
            elif text[j] == "}":
                depth -= 1
                if depth == 0:
                    break
            j += 1
        spans.append((m.group(1), m.end(), j))
    return spans


def child_file(parent_file, name, is_mod_rs):
    """Where `mod name;` declared in `parent_file` lives."""
    base = os.path.dirname(parent_file)
    if not is_mod_rs:
        base = os.path.join(base, os.path.splitext(os.path.basename(parent_file))[0])
    for cand in (os.path.join(base, name + ".rs"), os.path.join(base, name, "mod.rs")):
        if os.path.isfile(cand):
            return cand
    return None


def expand_use(tree):
    """`a::{b, c::{d, e as f}, self}` -> [([a, b], b), ([a, c, d], d), ([a, c, e], f), ([a], a)]:
    each path with the name it brings into scope."""
    tree = re.sub(r"\s+as\s+(" + IDENT + ")", r"@\1", tree)
    tree = re.sub(r"\s+", "", tree)
    out = []

    def walk(prefix, t):
        if t.startswith("{") and t.endswith("}"):
            depth, start = 0, 1
            for i, ch in enumerate(t[1:-1], 1):
                if ch == "{":
                    depth += 1
                elif ch == "}":
                    depth -= 1
                elif ch == "," and depth == 0:
                    walk(prefix, t[start:i])
                    start = i + 1
            walk(prefix, t[start:-1])
            return
        if not t:
            return
        brace = t.find("{")
        if brace > 0:
            head = [s for s in t[:brace].split("::") if s]
            walk(prefix + head, t[brace:])
            return
        t, _, alias = t.partition("@")
        segs = prefix + [s for s in t.split("::") if s]
        if segs and segs[-1] == "self":
            segs = segs[:-1]
        if segs:
            out.append((segs, alias or segs[-1]))

    walk([], tree)
    return out


class Crate:
    def __init__(self, root_file):
        self.files = {}  # module path (tuple) -> file
        self.modules = {}  # file -> module path
        self.mod_rs = {}  # file -> whether children live beside it (lib.rs, main.rs, mod.rs)
        self.reexports = {}  # module path -> {name: absolute path (list)}
        self.uses = {}  # file -> [(absolute path, text)]
        self.macros = {}  # `#[macro_export]` macro name -> the file that defines it
        self._load(root_file, ())

    def _load(self, f, path):
        self.files[path] = f
        self.modules[f] = path
        self.mod_rs[f] = not path or os.path.basename(f) == "mod.rs"
        text = strip_comments(open(f, encoding="utf-8").read())
        children = []
        for m in re.finditer(r"(?:#\[path\s*=\s*\"([^\"]+)\"\]\s*)?(?:pub(?:\([^)]*\))?\s+)?mod\s+(" + IDENT + r")\s*;", text):
            explicit, name = m.group(1), m.group(2)
            cf = (
                os.path.normpath(os.path.join(os.path.dirname(f), explicit))
                if explicit
                else child_file(f, name, self.mod_rs[f])
            )
            if cf:
                children.append((name, cf))
        child_names = {n for n, _ in children}
        for m in re.finditer(r"#\[macro_export[^\]]*\]\s*(?:#\[[^\]]*\]\s*)*macro_rules!\s*(" + IDENT + ")", text):
            self.macros[m.group(1)] = f
        spans = inline_modules(text)

        def here(pos):
            """The module path at `pos`: the file's, and the inline modules around `pos`."""
            return path + tuple(name for name, a, b in spans if a <= pos <= b)

        uses, reexp = [], {}
        for m in re.finditer(r"(pub(?:\([^)]*\))?\s+)?\buse\s+([^;]+);", text):
            public = m.group(1) is not None
            inner = here(m.start())
            for segs, alias in expand_use(m.group(2)):
                absolute = self._absolute(inner, segs, child_names if inner == path else set())
                if absolute is None:
                    # Another crate's item re-exported here is a use of that crate, not of
                    # this file.
                    if public and inner == path:
                        reexp[alias] = None
                    continue
                uses.append((absolute, "use " + "::".join(segs)))
                if public and inner == path:
                    reexp[alias] = absolute
        code = re.sub(r"\buse\s+[^;]+;", lambda m: " " * len(m.group(0)), text)
        for m in re.finditer(r"\b((?:" + IDENT + r"::)+)" + IDENT, code):
            segs = m.group(0).split("::")
            inner = here(m.start())
            names = child_names if inner == path else set()
            if segs[0] in ("crate", "super", "self") or segs[0] in names:
                absolute = self._absolute(inner, segs, names)
                if absolute is not None:
                    uses.append((absolute, m.group(0)))
        self.uses[f] = uses
        self.reexports[path] = reexp
        for name, cf in children:
            self._load(cf, path + (name,))

    @staticmethod
    def _absolute(here, segs, child_names):
        """The path from the crate root, or None for another crate's."""
        if not segs:
            return None
        if segs[0] == "crate":
            return list(segs[1:])
        base = list(here)
        i = 0
        if segs[0] == "self":
            i = 1
        elif segs[0] == "super":
            while i < len(segs) and segs[i] == "super":
                base = base[:-1]
                i += 1
        elif segs[0] not in child_names:
            return None
        return base + list(segs[i:])

    def target(self, absolute, seen=()):
        """The file that defines what `absolute` names (None: another crate)."""
        path = tuple(absolute)
        k = len(path)
        while k > 0 and path[:k] not in self.files:
            k -= 1
        module = path[:k]
        rest = path[k:]
        if rest and rest[0] in self.reexports.get(module, {}) and (module, rest[0]) not in seen:
            via = self.reexports[module][rest[0]]
            if via is None:
                return None
            return self.target(list(via) + list(rest[1:]), seen + ((module, rest[0]),))
        if not module and len(rest) == 1 and rest[0] in self.macros:
            # An exported macro lives at the root but is defined in its own file.
            return self.macros[rest[0]]
        return self.files[module]

    def edges(self):
        """file -> {file: the first path that uses it}"""
        out = {f: {} for f in self.modules}
        for f, uses in self.uses.items():
            for absolute, text in uses:
                t = self.target(absolute)
                if t is not None and t != f:
                    out[f].setdefault(t, text)
        return out


def cycles(edges):
    """Strongly connected components of more than one file (Tarjan), each as a cycle."""
    index, low, stack, on, comps, counter = {}, {}, [], set(), [], [0]

    def strong(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(comp)

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            strong(v)
    found = []
    for comp in comps:
        members = set(comp)
        # One circle through the component: a shortest way back to the start (BFS).
        start = sorted(comp)[0]
        prev, queue = {start: None}, [start]
        back = None
        while queue and back is None:
            v = queue.pop(0)
            for w in sorted(edges[v]):
                if w == start:
                    back = v
                    break
                if w in members and w not in prev:
                    prev[w] = v
                    queue.append(w)
        walk = [back]
        while prev[walk[-1]] is not None:
            walk.append(prev[walk[-1]])
        found.append((sorted(comp), list(reversed(walk))))
    return found


def roots(crate_dir):
    src = os.path.join(crate_dir, "src")
    out = [os.path.join(src, r) for r in ("lib.rs", "main.rs") if os.path.isfile(os.path.join(src, r))]
    bins = os.path.join(src, "bin")
    if os.path.isdir(bins):
        for name in sorted(os.listdir(bins)):
            p = os.path.join(bins, name)
            out.append(p if name.endswith(".rs") else os.path.join(p, "main.rs"))
    return [r for r in out if os.path.isfile(r)]


def main(args):
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    crates = args or sorted(
        os.path.join("crates", d)
        for d in os.listdir(os.path.join(repo, "crates"))
        if os.path.isfile(os.path.join(repo, "crates", d, "Cargo.toml"))
    )
    bad = False
    for c in crates:
        crate_dir = c if os.path.isabs(c) else os.path.join(repo, c)
        for root in roots(crate_dir):
            crate = Crate(root)
            edges = crate.edges()
            def rel(f):
                r = os.path.relpath(f, repo)
                return f if r.startswith("..") else r

            found = cycles(edges)
            n = len(crate.modules)
            if not found:
                print(f"{rel(root)}: {n} files, no import circle")
                continue
            bad = True
            for members, walk in found:
                print(f"{rel(root)}: import circle between {', '.join(rel(m) for m in members)}:")
                for a, b in zip(walk, walk[1:] + walk[:1]):
                    print(f"  {rel(a)} -> {rel(b)} ({edges[a][b]})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
