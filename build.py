#!/usr/bin/env python3
"""Kentino Wiki: the one entry point. Standard library only, so it runs before anything is installed.

    python3 build.py serve    set up, build, serve on http://127.0.0.1:8000 with reload
    python3 build.py build    set up, write the site to site/
    python3 build.py test     set up (Chromium included), then the whole test suite
    python3 build.py check    set up, then check both languages, the catalogs, the numbers and the links (as CI)
    python3 build.py summary  what the working tree changes of the pages' numbers and verdicts (--base REF)
    python3 build.py bench    set up, then measure the site against its speed budgets (--lighthouse: scores too)
    python3 build.py smoke    build site/ (or take DIR), then drive its live calculators as GitHub Pages serves it
    python3 build.py catalogs extract UI strings into i18n/messages.pot and update the da/fr catalogs
    python3 build.py bundle   bundle scripts/calculators/*.js into the served calculators.js
    python3 build.py lock     re-resolve requirements.in into requirements.lock (maintainers)

Every subcommand is a small function; `setup()` is idempotent and cheap when nothing changed.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
LOCK = ROOT / "requirements.lock"
PROJECT = ROOT / "pyproject.toml"  # the `kentino` plugin's entry point
NPM_LOCK = ROOT / "package-lock.json"
SITE = ROOT / "site"
CHROMIUM_CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser")
# The tests' browser: Chromium's headless shell (Debian's chromium-headless-shell), the same engine (Blink, V8,
# the network stack, service workers) without the browser's window machinery; Playwright's own headless
# default. On 2 cores (2026-12-05) a new context with an article page costs 0.4 s of CPU in it and 1.3 s in
# Chromium, a live boot 1.2 s and 2.4 s. The benchmarks keep Chromium: their ratios are the reader's browser's.
HEADLESS_SHELL_CANDIDATES = ("/usr/bin/chromium-headless-shell",)
# The web servers the hosting tests run (tests/support/hosts.py): executable -> Debian package.
HOST_SERVERS = {"/usr/sbin/nginx": "nginx", "/usr/sbin/apache2": "apache2"}
MIN_PYTHON = (3, 11)


def log(message: str) -> None:
    """Print a progress line that stands out from tool output."""
    print(f"[build.py] {message}", flush=True)


def run(cmd: list[str], **kwargs) -> None:
    """Run a command from the repository root; exit with its code if it fails."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", **kwargs.pop("env", {})}
    result = subprocess.run(cmd, cwd=kwargs.pop("cwd", ROOT), env=env, **kwargs)
    if result.returncode != 0:
        sys.exit(result.returncode)


def venv_bin(name: str) -> Path:
    """Path of an executable inside the project's virtual environment."""
    return VENV / ("Scripts" if os.name == "nt" else "bin") / name


def digest(*paths: Path) -> str:
    """SHA-256 over the given files, used to notice when a lock file changed."""
    sha = hashlib.sha256()
    for path in paths:
        sha.update(path.read_bytes())
    return sha.hexdigest()


def ensure_venv() -> None:
    """Create .venv if missing; install requirements.lock (hash-checked) and, editable, this project (the
    `kentino` MkDocs plugin's entry point, pyproject.toml) when either changed."""
    if sys.version_info < MIN_PYTHON:
        sys.exit(f"Python {'.'.join(map(str, MIN_PYTHON))}+ is needed, this is {sys.version.split()[0]}")
    if not venv_bin("python").exists():
        log("creating .venv")
        run([sys.executable, "-m", "venv", str(VENV)])
    stamp = VENV / ".requirements.sha256"
    wanted = digest(LOCK, PROJECT)
    if stamp.exists() and stamp.read_text() == wanted:
        return
    log("installing locked Python dependencies and the site's plugin")
    pip = [str(venv_bin("python")), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps"]
    run([*pip, "--require-hashes", "-r", str(LOCK)])
    # Quiet unless it fails: setuptools warns on every editable install that local folders come first.
    editable = subprocess.run([*pip, "--no-build-isolation", "--editable", str(ROOT)], cwd=ROOT,
                              capture_output=True, text=True, env={**os.environ, "PIP_NO_CACHE_DIR": "1"})
    if editable.returncode != 0:
        sys.exit(f"installing this project (pyproject.toml) failed:\n{editable.stdout}{editable.stderr}")
    stamp.write_text(wanted)


def apt_install(*packages: str) -> None:
    """Install Debian packages non-interactively (only as root, where apt-get exists)."""
    env = {"DEBIAN_FRONTEND": "noninteractive"}
    run(["apt-get", "update", "-qq"], env=env, stdin=subprocess.DEVNULL)
    run(["apt-get", "install", "-y", "-qq", *packages], env=env, stdin=subprocess.DEVNULL)


def can_apt() -> bool:
    """True where missing system packages can be installed here (root with apt-get, as in CI)."""
    return bool(shutil.which("apt-get")) and os.geteuid() == 0


def ensure_node_modules() -> None:
    """`npm ci` from package-lock.json (exact versions: Pyodide) when it changed; Node.js if missing."""
    if not shutil.which("npm"):
        if not can_apt():
            sys.exit("Node.js and npm are needed (the browser runtime comes from npm): install `nodejs` and `npm`.")
        log("installing Debian's nodejs and npm")
        apt_install("nodejs", "npm")
    stamp = ROOT / "node_modules" / ".package-lock.sha256"
    wanted = digest(NPM_LOCK)
    if stamp.exists() and stamp.read_text() == wanted:
        return
    log("installing locked npm dependencies (npm ci)")
    run(["npm", "ci", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"], stdin=subprocess.DEVNULL)
    stamp.write_text(wanted)


def find_chromium(candidates: tuple[str, ...] = CHROMIUM_CANDIDATES) -> str | None:
    """Return the browser to drive: $CHROMIUM if set, else the first of `candidates` installed."""
    configured = os.environ.get("CHROMIUM")
    listed = [configured] if configured else []
    listed += list(candidates)
    return next((c for c in listed if c and Path(c).exists()), None)


def ensure_chromium(package: str = "chromium", candidates: tuple[str, ...] = CHROMIUM_CANDIDATES) -> str:
    """Install Debian's `package` (chromium by default) when missing (as root, non-interactive); return its
    path."""
    found = find_chromium(candidates)
    if found:
        return found
    if can_apt():
        log(f"installing Debian's {package} for the browser tests")
        apt_install(package)
        found = find_chromium(candidates)
    if not found:
        sys.exit(f"Chromium is needed for the browser tests: install Debian's `{package}` package "
                 f"(sudo apt-get install {package}) or set CHROMIUM=/path/to/chromium.")
    return found


def ensure_test_browser() -> str:
    """The headless shell the tests drive (`HEADLESS_SHELL_CANDIDATES`), installed when missing; Chromium
    where it cannot be."""
    if find_chromium(HEADLESS_SHELL_CANDIDATES) or can_apt():
        return ensure_chromium("chromium-headless-shell", HEADLESS_SHELL_CANDIDATES)
    log("chromium-headless-shell cannot be installed here: the tests drive Chromium (about twice the CPU)")
    return ensure_chromium()


def ensure_host_servers() -> None:
    """Install Debian's nginx and apache2 when missing (as root, non-interactive): the hosting tests run them."""
    missing = [package for path, package in HOST_SERVERS.items() if not Path(path).exists()]
    if missing and can_apt():
        log(f"installing Debian's {' and '.join(missing)} for the hosting tests")
        apt_install(*missing)
        missing = [package for path, package in HOST_SERVERS.items() if not Path(path).exists()]
    if missing:
        sys.exit(f"The hosting tests serve the site with Debian's {' and '.join(missing)}: install "
                 f"{'them' if len(missing) > 1 else 'it'} (sudo apt-get install {' '.join(missing)}).")


def setup() -> None:
    """Everything the site build needs: locked Python packages (.venv) and npm packages (node_modules)."""
    ensure_venv()
    ensure_node_modules()


def mkdocs(*args: str) -> None:
    """Run MkDocs from the virtual environment."""
    run([str(venv_bin("python")), "-m", "mkdocs", *args])


def cmd_build(_: argparse.Namespace) -> None:
    """Set up, then build both languages strictly into site/."""
    setup()
    mkdocs("build", "--strict", "--site-dir", str(SITE))
    log(f"site written to {SITE}")


def cmd_serve(args: argparse.Namespace) -> None:
    """Set up, then serve with live reload on http://127.0.0.1:8000."""
    setup()
    log(f"serving on http://{args.addr}/ (Ctrl+C to stop)")
    # Rebuild on changes to the theme, the page script's modules, catalogs and Python too (docs/ and mkdocs.yml
    # are always watched).
    watched = [arg for path in ("overrides", "scripts", "i18n", "calculators", "widgets", "wiki")
               for arg in ("--watch", path)]
    code = run_until_stopped([str(venv_bin("python")), "-m", "mkdocs", "serve", "--strict", "--dev-addr", args.addr,
                              *watched])
    if code:
        sys.exit(code)


# How long a stopped child may take to finish before it is killed (mkdocs serve stops its server in well under 1 s).
STOP_GRACE_S = 10


def run_until_stopped(cmd: list[str]) -> int:
    """Run `cmd` from the repository root until it exits, or until this process is told to stop (Ctrl+C, SIGTERM,
    SIGHUP): then stop the child too, so that nothing is left holding the port; return the exit status."""
    def stop(signum: int, _frame: object) -> None:
        raise KeyboardInterrupt(signal.Signals(signum).name)

    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, stop)
    child = subprocess.Popen(cmd, cwd=ROOT, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    try:
        return child.wait()
    except KeyboardInterrupt:  # Ctrl+C reaches the child from the terminal too; SIGTERM and SIGHUP do not
        child.terminate()
        try:
            child.wait(STOP_GRACE_S)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
        log("stopped")
        return 0


def run_with_browser(module: str, *args: str, tests: bool = True) -> None:
    """Set up (the browser included: the tests' headless shell, or for `tests=False` Chromium), then run a
    Python module of the venv that drives it."""
    setup()
    chromium = ensure_test_browser() if tests else ensure_chromium()
    run([str(venv_bin("python")), "-m", module, *args], env={"CHROMIUM": chromium})


# How the suite runs: two processes per core, at most 8 (pytest-xdist; a module's shared copy of the project
# stays in one, the session's site is built once for all: tests/conftest.py), and the 25 slowest tests
# printed at the end. Two per core because most browser tests wait (a throttled line, a page's limit, a
# host): on 2 cores, 2026-12-04, pytest took 8 min 32 s - 9 min 18 s with 2 processes, 8 min 00 s with 3,
# 7 min 28 s with 4, and 8 min 24 s with 6 (the cores saturated, 2 % idle, and one timing test failed).
# `build.py test -n 0` (or any -n / -p no:xdist / --durations of your own) overrides them.
TEST_WORKERS = min(8, 2 * (os.cpu_count() or 1))
TEST_OPTIONS = {"-n": ["-n", str(TEST_WORKERS), "--dist", "loadgroup"], "--durations": ["--durations=25"]}


def pytest_options(given: list[str]) -> list[str]:
    """`TEST_OPTIONS` that `given` does not set itself (`-p no:xdist` turns the processes off), then `given`."""
    added = []
    for flag, options in TEST_OPTIONS.items():
        mine = any(arg == flag or arg.startswith(flag + "=") or (flag == "-n" and arg == "no:xdist") for arg in given)
        if not mine:
            added += options
    return [*added, *given]


def cmd_test(args: argparse.Namespace) -> None:
    """Set up (Chromium's headless shell, nginx and Apache included), then run the whole pytest suite."""
    ensure_host_servers()
    run_with_browser("pytest", *pytest_options(args.pytest_args))


def cmd_smoke(args: argparse.Namespace) -> None:
    """Serve a built site as GitHub Pages would (its types, no headers, under a sub-path) and use it live: the
    folder given, or site/ built from the working tree first."""
    if args.site is None:
        cmd_build(args)
    site = Path(args.site or SITE).resolve()
    if not (site / "index.html").exists():
        sys.exit(f"{site} holds no built site: build one (`python3 build.py build`), or leave the folder out.")
    run_with_browser("pytest", "tests/hosts/test_hosts.py", "--site", str(site),
                     "-k", "github-pages or travels or readable")


def cmd_check(args: argparse.Namespace) -> None:
    """Set up, then run every check of wiki/checks (strict build, parity, numbers, claims, catalogs, links), or
    the ones named; `--fix-claims` first writes into claims.yml the numbers corrected in every language that the
    calculator agrees with."""
    setup()
    run([str(venv_bin("python")), "-m", "wiki.checks", *(["--fix-claims"] if args.fix_claims else []), *args.only])
    log(f"check passed: {', '.join(args.only)}" if args.only else
        "check passed: both languages, the catalogs, the numbers and the links agree")


def cmd_summary(args: argparse.Namespace) -> None:
    """Set up, then list what the working tree changes of each page's widget values, verdicts and claims
    against `--base` (Markdown; also appended to $GITHUB_STEP_SUMMARY when set)."""
    setup()
    run([str(venv_bin("python")), "-m", "wiki.checks.summary", "--base", args.base])


def cmd_bench(args: argparse.Namespace) -> None:
    """Set up (Chromium included), then run benchmarks/bench_site.py: figures, budgets, JSON."""
    run_with_browser("benchmarks.bench_site", *args.pytest_args, tests=False)


def cmd_catalogs(_: argparse.Namespace) -> None:
    """Extract msgids (widgets/, wiki/templates/) into i18n/messages.pot and merge them into each .po."""
    setup()
    pybabel = str(venv_bin("pybabel"))
    run([pybabel, "--quiet", "extract", "-F", "i18n/babel.cfg", "-k", "N_", "-k", "NP_:1,2", "--no-location",
         "--sort-output", "--omit-header", "-o", "i18n/messages.pot", "."])
    # A language declared in mkdocs.yml (wiki/languages.py) without a catalog yet gets an empty one.
    code = "from wiki import languages; print(*languages.read().all)"
    declared = subprocess.run([str(venv_bin("python")), "-c", code], cwd=ROOT, capture_output=True, text=True,
                              check=True).stdout.split()
    for lang in declared:
        if not (ROOT / "i18n" / lang / "LC_MESSAGES" / "messages.po").exists():
            run([pybabel, "--quiet", "init", "-i", "i18n/messages.pot", "-d", "i18n", "-D", "messages", "-l", lang])
    before = {path: path.read_text(encoding="utf-8") for path in (ROOT / "i18n").glob("*/LC_MESSAGES/messages.po")}
    run([pybabel, "--quiet", "update", "-i", "i18n/messages.pot", "-d", "i18n", "-D", "messages",
         "--no-fuzzy-matching", "--ignore-obsolete"])
    for path, text in before.items():
        keep_if_only_stamped(path, text)
    log("catalogs updated: translate the new empty msgstr entries in i18n/*/LC_MESSAGES/messages.po")


# The header line `pybabel update` rewrites on every run, whether or not a message changed.
STAMP_PREFIX = '"POT-Creation-Date: '


def keep_if_only_stamped(path: Path, before: str) -> None:
    """Put `before` back into `path` when all that changed is the creation date: an unchanged catalog stays
    unchanged in git."""
    after = path.read_text(encoding="utf-8")
    if after != before and unstamped(after) == unstamped(before):
        path.write_text(before, encoding="utf-8")


def unstamped(catalog: str) -> list[str]:
    """A catalog's lines without its creation date."""
    return [line for line in catalog.splitlines() if not line.startswith(STAMP_PREFIX)]


def cmd_types(_: argparse.Namespace) -> None:
    """Write types/protocol.d.ts, the page scripts' types, from widgets/protocol.py (wiki/protocol_types.py)."""
    ensure_venv()
    run([str(venv_bin("python")), "-m", "wiki.protocol_types"])


def cmd_bundle(_: argparse.Namespace) -> None:
    """Bundle scripts/calculators/*.js into overrides/assets/javascripts/calculators.js (wiki/page_bundle.py)."""
    setup()
    run([str(venv_bin("python")), "-m", "wiki.page_bundle"])


def cmd_lock(_: argparse.Namespace) -> None:
    """Re-resolve requirements.in into requirements.lock with exact pins and hashes."""
    ensure_venv()
    run([str(venv_bin("python")), "-m", "piptools", "compile", "--quiet", "--generate-hashes",
         "--allow-unsafe", "--strip-extras", "--no-emit-index-url", "--no-emit-find-links",
         "--output-file", str(LOCK), str(ROOT / "requirements.in")],
        cwd=VENV)  # not the repository root: this build.py would shadow the `build` package


def parser() -> argparse.ArgumentParser:
    """The command-line interface: one subcommand per task."""
    top = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = top.add_subparsers(dest="command", required=True)
    sub.add_parser("build", help="build the site into site/").set_defaults(func=cmd_build)
    serve = sub.add_parser("serve", help="serve with live reload")
    serve.add_argument("--addr", default="127.0.0.1:8000")
    serve.set_defaults(func=cmd_serve)
    test = sub.add_parser("test", help="run the whole test suite")
    test.set_defaults(func=cmd_test)
    check = sub.add_parser("check", help="check languages, catalogs, numbers, claims, links")
    check.add_argument("only", nargs="*", metavar="checker", help="run only these checkers (default: all)")
    check.add_argument("--fix-claims", action="store_true",
                       help="first update claims.yml where the prose of every language and the calculator agree")
    check.set_defaults(func=cmd_check)
    summary = sub.add_parser("summary", help="the pages' numbers and verdicts changed against a base commit")
    summary.add_argument("--base", default="origin/main", help="the commit or branch to compare with")
    summary.set_defaults(func=cmd_summary)
    sub.add_parser("bench", help="measure the site against its budgets").set_defaults(func=cmd_bench)
    smoke = sub.add_parser("smoke", help="use the live calculators of a built site as GitHub Pages serves it")
    smoke.add_argument("site", nargs="?", help="a built site's folder (default: build site/ first)")
    smoke.set_defaults(func=cmd_smoke)
    sub.add_parser("catalogs", help="extract and update the gettext catalogs").set_defaults(func=cmd_catalogs)
    sub.add_parser("types", help="write the page scripts' protocol types from widgets/protocol.py").set_defaults(
        func=cmd_types)
    sub.add_parser("bundle", help="bundle the live calculators' page script from scripts/calculators/").set_defaults(
        func=cmd_bundle)
    sub.add_parser("lock", help="refresh requirements.lock").set_defaults(func=cmd_lock)
    return top


def main(argv: list[str] | None = None) -> None:
    """Parse arguments and run the chosen subcommand."""
    top = parser()
    args, extra = top.parse_known_args(argv)
    if extra and args.command not in {"test", "bench"}:
        top.error(f"unrecognized arguments: {' '.join(extra)}")
    args.pytest_args = extra  # `build.py test -k search` passes `-k search` to pytest (bench: its options)
    args.func(args)


if __name__ == "__main__":
    main()
