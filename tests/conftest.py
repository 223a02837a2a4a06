"""Shared fixtures: one strict build of the site per session, a local server, headless Chromium.

The site is built once per session, also when pytest-xdist runs the tests in several processes: the
controller serves one folder and each worker asks for it; the first to ask builds it, under a file
lock, the others wait for it and serve the same files (`SharedSite`). The build also records the
plugin's problems, so that the checks of the real repository (`tests/checks/test_checks.py`) read this
build instead of making their own.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from harness.chromium import ARGS as CHROMIUM_ARGS
from harness.server import StaticServer
from tests.support.browser import KeptTabs, watched
from tests.support.content import urls
from tests.support.live import FIRST, READY, WIDTHS

ROOT = Path(__file__).resolve().parent.parent
SITE_ENV = "KW_TEST_SITE"  # "<folder>\n<url>": the session's site, as the controller hands it to workers
KEEP_ENV = "KW_TEST_SITE_DIR"  # build the session's site into this folder and keep it (tests/site/test_editing.py)
# The tests that read the content (pages, claims.yml, catalogs): what an editor's or a translator's change can
# break. The editors' fast CI job runs them (`pytest -m "content and not browser"`), and test_editing.py runs
# them on a copy of the project with an editor's four usual edits.
CONTENT = ("tests/site/test_build.py", "tests/site/test_widgets.py", "tests/site/test_chrome.py",
           "tests/calculators/test_claims.py",
           "tests/calculators/test_contract.py", "tests/widgets/test_sentences.py",
           "tests/checks/test_checks.py::test_the_real_repository_has_no_finding")


def build_site(
    target: Path, config: Path = ROOT / "mkdocs.yml", site_url: str | None = None, report: Path | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run a strict MkDocs build of `config` into `target`; return the finished process.

    With `report`, the plugin's problems go there as data (`wiki/problems.py`), as in `build.py check`.
    """
    from wiki.problems import REPORT_ENV

    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    if site_url:
        env["SITE_URL"] = site_url
    if report:
        env[REPORT_ENV] = str(report)
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(config),
         "--site-dir", str(target)],
        cwd=config.parent, env=env, capture_output=True, text=True, stdin=subprocess.DEVNULL,
    )


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--site", type=Path, default=None,
                     help="test this already built site instead of building one (the deploy's smoke test)")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "content: reads the pages, the claims or the catalogs (what an editor's "
                                       "or a translator's change can break): the editors' fast CI job runs these")
    if hasattr(config, "workerinput"):  # an xdist worker: the controller serves the site
        return
    given = config.getoption("--site")
    kept = os.environ.get(KEEP_ENV)
    if kept:
        Path(kept).mkdir(parents=True, exist_ok=True)
    folder = given.resolve() if given else Path(kept) if kept else Path(tempfile.mkdtemp(prefix="kw-test-site-"))
    server = StaticServer(folder)
    server.__enter__()  # an idle thread until a test asks for a page
    config._kw_site = (folder, server, not (given or kept))  # noqa: SLF001 - pytest's config carries plugin state
    if config.pluginmanager.hasplugin("xdist"):
        config.pluginmanager.register(_HandSiteToWorkers())


class _HandSiteToWorkers:
    """pytest-xdist's hook, registered when xdist is there: each worker is told the session's site."""

    @staticmethod
    def pytest_configure_node(node) -> None:
        folder, server, _owned = node.config._kw_site  # noqa: SLF001
        node.workerinput[SITE_ENV] = f"{folder}\n{server.url}"


# First: xdist's own hook (registered later, so called earlier) reads the xdist_group marks into the node ids.
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The tests of `CONTENT` are marked `content`. Under `--dist loadgroup`, the tests of a module that share a
    module-scoped fixture (a copy of the project built once, Pyodide run once under Node) run in one process,
    so that it is made once."""
    for item in items:
        if item.nodeid.startswith(CONTENT):
            item.add_marker(pytest.mark.content)
        if not config.pluginmanager.hasplugin("xdist"):
            continue
        defs = getattr(getattr(item, "_fixtureinfo", None), "name2fixturedefs", {})
        if any(fixture[-1].scope == "module" for fixture in defs.values() if fixture):
            item.add_marker(pytest.mark.xdist_group(item.module.__name__))


def pytest_unconfigure(config: pytest.Config) -> None:
    site = getattr(config, "_kw_site", None)
    if site:
        folder, server, owned = site
        server.__exit__(None, None, None)
        if owned:
            shutil.rmtree(folder, ignore_errors=True)
            for suffix in (".build.json", ".lock", ".problems.jsonl"):
                (folder.parent / f"{folder.name}{suffix}").unlink(missing_ok=True)


@dataclass(frozen=True)
class SharedSite:
    """The session's built site: its folder (`root`), its URL, and what the build said."""

    root: Path
    url: str

    @property
    def report(self) -> Path:
        """The plugin's problems of the build (`wiki/problems.py`), one JSON object per line."""
        return self.root.parent / f"{self.root.name}.problems.jsonl"

    @property
    def output(self) -> dict:
        """The build's exit code and MkDocs' output."""
        return json.loads((self.root.parent / f"{self.root.name}.build.json").read_text(encoding="utf-8"))

    def ensure_built(self) -> None:
        """Build the site once (the first process to ask does it; the others wait on the lock)."""
        done = self.root.parent / f"{self.root.name}.build.json"
        with open(self.root.parent / f"{self.root.name}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not done.exists():
                self.report.unlink(missing_ok=True)
                result = build_site(self.root, site_url=self.url, report=self.report)
                done.write_text(json.dumps({"returncode": result.returncode, "stdout": result.stdout,
                                            "stderr": result.stderr}), encoding="utf-8")
        output = self.output
        assert output["returncode"] == 0, f"strict build failed:\n{output['stdout']}\n{output['stderr']}"


@pytest.fixture(scope="session")
def server(pytestconfig: pytest.Config) -> SharedSite:
    """The site built once, strictly, with `site_url` set to where it is served on 127.0.0.1.

    The sitemap's absolute hreflang URLs then point at the test server itself, as they point at the
    real host in production. With `--site DIR`, that built site is served as it is.
    """
    if hasattr(pytestconfig, "workerinput"):
        folder, url = pytestconfig.workerinput[SITE_ENV].split("\n")
        site = SharedSite(Path(folder), url)
    else:
        folder, running, _owned = pytestconfig._kw_site  # noqa: SLF001
        site = SharedSite(folder, running.url)
    if not pytestconfig.getoption("--site"):
        site.ensure_built()
    return site


@pytest.fixture(scope="session")
def site_dir(server: SharedSite) -> Path:
    """The built site's folder."""
    return server.root


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """Headless Debian Chromium driven by Playwright (never a downloaded browser)."""
    from playwright.sync_api import sync_playwright

    executable = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    if not Path(executable).exists():
        pytest.fail(f"Chromium not found at {executable}: run the tests through `python3 build.py test`")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture(scope="session")
def kept_tabs(browser) -> Iterator[KeptTabs]:
    """This test process's kept tabs (tests/support/browser.py), for tests whose subject is not a first visit."""
    tabs = KeptTabs(browser)
    yield tabs
    tabs.close()


@pytest.fixture
def page(browser, kept_tabs: KeptTabs, server: SharedSite, request: pytest.FixtureRequest) -> Iterator[object]:
    """A fresh browser page; every request it makes is recorded in `page.requested_urls`. In a module marked
    `kept_tab`, whose tests are not about a first visit, a kept tab instead (`KeptTabs`), except for a test
    marked `kept_tab(False)`.

    Its context bypasses the pages' `<meta>` policy, which would refuse the string predicates of
    `wait_for_function`; the policy itself is tested in tests/site/test_csp.py and tests/hosts/.
    """
    kept = request.node.get_closest_marker("kept_tab")  # the test's own mark before its module's
    if kept and kept.args != (False,):
        tab = kept_tabs.open()
        yield tab
        kept_tabs.release(tab)
        return
    context = browser.new_context(service_workers="block", bypass_csp=True)
    yield watched(context.new_page())
    context.close()


@pytest.fixture
def open_page(browser, kept_tabs: KeptTabs, server, request):
    """A page at one width, language and theme (Material follows prefers-color-scheme on a first visit).

    A kept tab of that width and theme (`KeptTabs`), unless the test prepares the page (`before`) or its
    context (`options`, such as permissions): those get a context of their own."""
    contexts, kept = [], []

    def open_(width: str, lang: str, scheme: str, fragment: str = "", live: bool = False, before=None, **options):
        if before or options:
            context = browser.new_context(viewport=WIDTHS[width], color_scheme=scheme, service_workers="block",
                                          bypass_csp=True, **options)
            contexts.append(context)
            page = watched(context.new_page())
        else:
            page = kept_tabs.open(viewport=WIDTHS[width], color_scheme=scheme)
            kept.append(page)
        if before:
            before(page)
        page.goto(server.url + urls(FIRST)[lang] + fragment)
        expected = "slate" if scheme == "dark" else "default"
        assert page.locator("body").get_attribute("data-md-color-scheme") == expected
        if live:
            page.locator('[data-calculator="vram_fit"] [name="gpus"]').focus()
            page.wait_for_function(READY, timeout=60000)
        return page

    yield open_
    for page in kept:
        kept_tabs.release(page)
    for context in contexts:
        context.close()
