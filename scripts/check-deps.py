#!/usr/bin/env python3
"""check-deps.py - is scripts/debian-packages.txt honest? Lists every external
command the build, the tests, the demo and the benchmark run (read from the
Makefiles and scripts: words in command position), every library they link
(-l flags), every system header the C sources include and every Python module
the tests import; finds the Debian package each comes from (dpkg -S) and
checks that the package is in the list, is pulled in by one that is
(Depends/Pre-Depends, recursively), or is on every Debian system (Essential
or of Priority required: what debootstrap's minbase installs).
Prints "ok - ..." / "not ok - ..." lines; exit status 1 if any is missing.

  scripts/check-deps.py [--list]    (--list: print what was found, and from where)
"""
import glob
import os
import re
import shutil
import subprocess
import sys

SYSTEM_PATH = "/usr/sbin:/usr/bin:/sbin:/bin"
PYTHON3 = "/usr/bin/python3"  # Debian's, whatever python3 comes first in PATH
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGES = os.path.join(ROOT, "scripts", "debian-packages.txt")

# Where commands are run from. Makefiles first: their variables are read.
MAKEFILES = ["Makefile", "mk/*.mk", "guest/Makefile", "guest/*.mk", "guest/*/Makefile",
             "tests/*/Makefile", "tests/*.mk", "fuzz/Makefile", "packaging/debian/rules"]
SCRIPTS = ["tests/*.sh", "tests/*/*.sh", "scripts/*.sh", "bench/*.sh"]
PYTHON = ["tests/*/*.py", "bench/*.py", "scripts/*.py"]
C_SOURCES = ["src/*.c", "src/*/*.c", "examples/*.c", "tests/unit/*.c", "fuzz/*.c"]

# Used only when present, and the tests say "skipped" without them: not
# dependencies. Each with the reason.
OPTIONAL = {
    "zsh": "tests/cli/tests.sh parses the zsh completion when zsh is there",
}
# Words the scan takes for commands that are not, each with the reason.
NOT_COMMANDS = {
    "open": "mk/tools.mk: a word of the demo's message '(open it in a browser)'",
}
MAKE_FUNCTIONS = set("""dir notdir filter filter-out firstword lastword word words wordlist
    patsubst subst strip findstring sort suffix basename addsuffix addprefix join wildcard
    realpath abspath if or and foreach call value eval origin flavor error warning info
    shell""".split())
# Make's built-in variables the Makefiles use without setting them.
MAKE_DEFAULTS = {"AR": "ar", "CC": "cc", "MAKE": "make", "RM": "rm -f"}

# A word in command position: at the start of a line or of a recipe, after
# | ; & ( ! $( ` and the keywords and wrappers that run the next word.
COMMAND_AT = re.compile(
    r"""(?:^|[|;&(!`]|\$\(|\$\(shell\s|\b(?:then|do|else|exec|xargs|command\s+-v|time)\s
        |\btimeout\s+(?:-\S+\s+)*(?:--foreground\s+)?(?:-s\s+\S+\s+)?[0-9.]+\s
        |\b(?:sh|bash)\s+-\w*c\s+["']
        |\bexpect\s+"(?:[^"\\]|\\.)*"\s)
        \s*[@-]*\s*(?:[A-Z_]+=\S*\s+)*([A-Za-z][\w.+-]*)(?=\s|$|[;|&)"'`])""",
    re.X)
SHELL_WORDS = set("""if then else elif fi for while until do done case esac in function
    return local export set shift exit break continue true false test echo printf
    read cd pwd eval source trap wait kill type command builtin declare unset
    let alias ulimit umask exec time shopt mapfile readarray getopts hash""".split())


def files(patterns):
    out = []
    for p in patterns:
        out += sorted(glob.glob(os.path.join(ROOT, p)))
    return out


def strip_comment(line):
    """The line without a # comment (a # at the start or after a blank)."""
    m = re.search(r"(^|\s)#", line)
    return line[: m.start()] if m else line


def make_vars(paths):
    """VAR ?= / := / = value, over all Makefiles, defaults first."""
    v = dict(MAKE_DEFAULTS)
    for path in paths:
        for line in open(path, errors="replace"):
            m = re.match(r"^\s*([A-Z_]+)\s*(?:\?=|:=|=)\s*(.*?)\s*$", strip_comment(line))
            if m and m.group(1) not in v:
                v[m.group(1)] = m.group(2)
    return v


def expand(line, v, depth=0):
    """$(VAR) and ${VAR:-default} replaced, so $(CROSS)gcc reads as a command."""
    if depth > 4:
        return line
    new = re.sub(r"\$\(([A-Z_]+)\)", lambda m: v.get(m.group(1), ""), line)
    new = re.sub(r"\$\{[A-Z_]+:-([^}]*)\}", r"\1", new)
    return new if new == line else expand(new, v, depth + 1)


def commands():
    """{command: first place it is used}"""
    found = {}
    mk = files(MAKEFILES)
    v = make_vars(mk)
    functions = set()
    scripts = files(SCRIPTS)
    for path in scripts:
        functions |= set(re.findall(r"^\s*([\w-]+)\s*\(\)", open(path, errors="replace").read(),
                                    re.M))
    for path in mk + scripts:
        in_heredoc = None
        for n, line in enumerate(open(path, errors="replace"), 1):
            if in_heredoc:  # python or text fed to a command: not shell
                if line.strip() == in_heredoc:
                    in_heredoc = None
                continue
            m = re.search(r"<<-?\s*'?(\w+)'?", line)
            line = expand(strip_comment(line.rstrip("\n")), v)
            if path in mk and line.startswith("\t"):
                line = line.lstrip("\t@-")
            elif path in mk and not re.search(r"\$\(shell\s", line):
                continue  # make syntax, not a recipe
            for word in COMMAND_AT.findall(line):
                if (word in SHELL_WORDS or word in functions or word in NOT_COMMANDS
                        or not shutil.which(word, path=SYSTEM_PATH)):
                    continue  # only installed commands: the rest are words of text
                if path in mk and word in MAKE_FUNCTIONS and "$(" + word in line:
                    continue
                found.setdefault(word, "%s:%d" % (os.path.relpath(path, ROOT), n))
            if m:
                in_heredoc = m.group(1)
    for path in files(PYTHON):
        text = open(path, errors="replace").read()
        for word in re.findall(r"""\[\s*['"]([A-Za-z][\w.+-]*)['"]\s*,""", text):
            if shutil.which(word):
                found.setdefault(word, os.path.relpath(path, ROOT))
    return found


def python_modules():
    mods = {}
    for path in files(PYTHON + SCRIPTS) + [os.path.join(ROOT, "tests/run.sh")]:
        text = open(path, errors="replace").read()
        for m in re.finditer(r"^\s*(?:import\s+([a-z_]\w*)|from\s+([a-z_]\w*)\s+import\b)", text,
                             re.M):
            name = m.group(1) or m.group(2)
            # a module of the tree itself, beside the script (bench/results_md.py)
            if os.path.exists(os.path.join(os.path.dirname(path), name + ".py")):
                continue
            mods.setdefault(name, os.path.relpath(path, ROOT))
    return mods


def libraries():
    text = open(os.path.join(ROOT, "mk/config.mk")).read()
    return {lib: "mk/config.mk" for lib in re.findall(r"-l(\w+)", text)}


def headers():
    """System headers the host C sources include, from the compiler itself."""
    srcs = files(C_SOURCES)
    r = subprocess.run(["cc", "-M", "-D_GNU_SOURCE", "-I" + os.path.join(ROOT, "include"),
                        "-I" + os.path.join(ROOT, "src"), "-I" + os.path.join(ROOT, "tests/unit")]
                       + srcs, capture_output=True, text=True)
    return sorted({w for w in r.stdout.replace("\\\n", " ").split()
                   if w.startswith("/usr/") and not w.endswith(":")})


def owners(paths):
    """{path: package} for the paths dpkg knows; tries the path as given, then
    with symlinks resolved (alternatives, /bin -> /usr/bin)."""
    want = {}
    for p in paths:
        for q in (p, os.path.normpath(p), os.path.realpath(p)):
            want.setdefault(q, p)
            if q.startswith("/usr/"):  # merged /usr: dpkg may know /lib/x, /bin/x
                want.setdefault(q[4:], p)
    r = subprocess.run(["dpkg", "-S"] + list(want), capture_output=True, text=True)
    out = {}
    for line in r.stdout.splitlines():
        if line.startswith("diversion by"):
            continue
        pkgs, _, path = line.partition(": ")
        if path in want and want[path] not in out:
            out[want[path]] = pkgs.split(",")[0].split(":")[0].strip()
    return out


def closure(listed):
    """The listed packages and everything they depend on, recursively
    (installed ones; alternatives all count), and the Essential packages."""
    r = subprocess.run(["dpkg-query", "-W", "-f", "${Package}\t${Essential}/${Priority}\t${Depends}, "
                        "${Pre-Depends}, ${Provides}\n"], capture_output=True, text=True)
    deps, essential, provides = {}, set(), {}
    for line in r.stdout.splitlines():
        pkg, ess, rest = line.split("\t")
        if ess.startswith("yes/") or ess.endswith("/required"):
            essential.add(pkg)
        d = set(re.findall(r"([a-z0-9][a-z0-9+.-]+)(?::\w+)?(?:\s*\([^)]*\))?", rest))
        deps[pkg] = d
    todo, seen = list(listed), set()
    while todo:
        p = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        todo += [d for d in deps.get(p, ()) if d not in seen]
    todo = list(essential)
    while todo:  # what Essential packages depend on is there too
        p = todo.pop()
        if p in essential and p in seen:
            continue
        essential.add(p)
        seen.add(p)
        todo += [d for d in deps.get(p, ()) if d not in seen]
    return seen, essential


def main():
    listed = [l.strip() for l in open(PACKAGES) if l.strip() and not l.startswith("#")]
    covered, essential = closure(listed)
    missing = 0

    def verdict(kind, name, where, path, pkg):
        nonlocal missing
        if "--list" in sys.argv:
            print("# %s %s (%s): %s, package %s" % (kind, name, where, path, pkg))
        if pkg is None:
            missing += 1
            print("not ok - deps: %s %s (%s): %s" % (kind, name, where, path))
        elif pkg in listed or pkg in covered:
            pass
        else:
            missing += 1
            print("not ok - deps: %s %s (%s) comes from %s, which scripts/debian-packages.txt "
                  "does not list" % (kind, name, where, pkg))

    cmds = commands()
    paths = {}
    for c in sorted(cmds):
        if c in OPTIONAL:
            continue
        p = shutil.which(c, path=SYSTEM_PATH)
        paths[c] = p
    own = owners([p for p in paths.values() if p])
    for c in sorted(paths):
        p = paths[c]
        verdict("command", c, cmds[c], p or "not installed", own.get(p) if p else None)
    libs = libraries()
    lib_paths = {}
    for lib in libs:
        r = subprocess.run(["cc", "-print-file-name=lib%s.so" % lib], capture_output=True, text=True)
        p = r.stdout.strip()
        if not os.path.isabs(p):
            r = subprocess.run(["cc", "-print-file-name=lib%s.a" % lib], capture_output=True,
                               text=True)
            p = r.stdout.strip()
        lib_paths[lib] = p if os.path.isabs(p) else None
    own = owners([p for p in lib_paths.values() if p])
    for lib in sorted(libs):
        verdict("library", "-l" + lib, libs[lib], lib_paths[lib] or "not found",
                own.get(lib_paths[lib]))
    hdrs = headers()
    own = owners(hdrs)
    for h in hdrs:
        verdict("header", os.path.basename(h), "C sources", h, own.get(h))
    mods = python_modules()
    mod_paths = {}
    for m in sorted(mods):
        r = subprocess.run([PYTHON3, "-c", "import %s, sys; print(getattr(%s, '__file__', '') "
                            "or 'builtin')" % (m, m)], capture_output=True, text=True)
        mod_paths[m] = r.stdout.strip() if r.returncode == 0 else None
    own = owners([p for p in mod_paths.values() if p and p != "builtin"])
    own_py = owners([PYTHON3])
    for m in sorted(mods):
        p = mod_paths[m]
        pkg = own_py.get(PYTHON3) if p == "builtin" else own.get(p) if p else None
        verdict("python module", m, mods[m], p or "cannot be imported", pkg)
    n = len(paths) + len(libs) + len(hdrs) + len(mods)
    if missing == 0:
        print("ok - deps: %d commands, %d libraries, %d system headers and %d Python modules "
              "all come from scripts/debian-packages.txt, their dependencies or packages "
              "every Debian system has" % (len(paths), len(libs), len(hdrs), len(mods)))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
