"""Shared fixtures: one strict build of the site per session, a local server, headless Chromium."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from harness.chromium import ARGS as CHROMIUM_ARGS
from harness.server import StaticServer

ROOT = Path(__file__).resolve().parent.parent


def build_site(
    target: Path, config: Path = ROOT / "mkdocs.yml", site_url: str | None = None
) -> subprocess.CompletedProcess[str]:
    """Run a strict MkDocs build of `config` into `target`; return the finished process."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    if site_url:
        env["SITE_URL"] = site_url
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(config),
         "--site-dir", str(target)],
        cwd=ROOT, env=env, capture_output=True, text=True,
    )


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--site", type=Path, default=None,
                     help="test this already built site instead of building one (the deploy's smoke test)")


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory, pytestconfig: pytest.Config) -> Iterator[StaticServer]:
    """The site built once, strictly, with `site_url` set to where it is served on 127.0.0.1.

    The sitemap's absolute hreflang URLs then point at the test server itself, as they point at the
    real host in production. With `--site DIR`, that
    built site is served as it is.
    """
    given = pytestconfig.getoption("--site")
    if given:
        with StaticServer(given.resolve()) as running:
            yield running
        return
    target = tmp_path_factory.mktemp("site")
    with StaticServer(target) as running:
        result = build_site(target, site_url=running.url)
        assert result.returncode == 0, f"strict build failed:\n{result.stdout}\n{result.stderr}"
        yield running


@pytest.fixture(scope="session")
def site_dir(server: StaticServer) -> Path:
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


@pytest.fixture
def page(browser, server: StaticServer) -> Iterator[object]:
    """A fresh browser page; every request it makes is recorded in `page.requested_urls`.

    Its context bypasses the pages' `<meta>` policy, which would refuse the string predicates of
    `wait_for_function`; the policy itself is tested in tests/site/test_csp.py and tests/hosts/.
    """
    context = browser.new_context(service_workers="block", bypass_csp=True)
    tab = context.new_page()
    tab.set_default_timeout(15000)
    tab.requested_urls = []
    tab.on("request", lambda request: tab.requested_urls.append(request.url))
    yield tab
    context.close()
