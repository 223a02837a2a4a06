"""The static hosts the README's "Hosting" table names, run here as their packages ship them.

Each host serves a document root on 127.0.0.1 and is a context manager giving its base URL. `HOSTS`
is the table the README's rows are tested against (tests/hosts/test_hosts.py):

- `nginx`: Debian's nginx with its own `mime.types` (1.22 has no `.mjs` type), its stock http settings
  (`gzip on`), the worker processes as `www-data` when started as root.
- `apache`: Debian's apache2 with the modules its package enables (mime with `/etc/mime.types`,
  deflate, dir, ...), running as `www-data` when started as root.
- `http.server`: `python3 -m http.server`, nothing else.
- `github-pages`: no custom headers and GitHub Pages' own types, which come from the mime-db project
  (npm package `mime-db`, pinned): GitHub answers "the list of supported MIME types is generated from
  the mime-db project" (github.com/orgs/community/discussions/22863).
- `netlify`: the headers of the site's `_headers` file (Netlify and Cloudflare Pages read it).
"""

from __future__ import annotations

import contextlib
import fnmatch
import functools
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

from harness.server import QuietHandler, StaticServer
from wiki.csp import read_headers

ROOT = Path(__file__).resolve().parent.parent.parent
MIME_DB = ROOT / "node_modules" / "mime-db" / "db.json"
SERVER_USER = "www-data"
NGINX = "/usr/sbin/nginx"
APACHE = "/usr/sbin/apache2"

NGINX_CONF = """\
{user}
worker_processes 1;
pid {run}/nginx.pid;
error_log {run}/error.log;
events {{ worker_connections 768; }}
http {{
    # Debian's stock /etc/nginx/nginx.conf, less its logs and its sites-enabled/
    sendfile on;
    tcp_nopush on;
    types_hash_max_size 2048;
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log off;
    gzip on;
    client_body_temp_path {run}/body;
    proxy_temp_path {run}/proxy;
    fastcgi_temp_path {run}/fastcgi;
    uwsgi_temp_path {run}/uwsgi;
    scgi_temp_path {run}/scgi;
    server {{
        listen 127.0.0.1:{port};
        root {docroot};
        index index.html;
    }}
}}
"""

APACHE_CONF = """\
ServerRoot /etc/apache2
Define APACHE_LOG_DIR {run}
Define APACHE_RUN_DIR {run}
Define APACHE_LOCK_DIR {run}
PidFile {run}/apache2.pid
Mutex file:{run} default
DefaultRuntimeDir {run}
ErrorLog {run}/error.log
LogLevel warn
# the modules Debian's package enables, with their configuration (mime.conf: TypesConfig /etc/mime.types)
IncludeOptional mods-enabled/*.load
IncludeOptional mods-enabled/*.conf
{user}
Listen 127.0.0.1:{port}
ServerName 127.0.0.1
DocumentRoot {docroot}
<Directory {docroot}>
    Options Indexes FollowSymLinks
    AllowOverride None
    Require all granted
</Directory>
"""


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_until_serving(url: str, process: subprocess.Popen | None, log: Path | None = None) -> None:
    """Return once `url` answers; fail with the server's own log if it exits or never answers."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            text = log.read_text(errors="replace") if log and log.exists() else ""
            raise RuntimeError(f"the server exited with {process.returncode}:\n{text}")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except urllib.error.HTTPError:  # an answer all the same (a sub-path's root has no index)
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"{url} did not answer within 20 s")


def readable_copy(site: Path, parent: Path, sub_path: str = "") -> Path:
    """Copy `site` (its modes kept) into a new document root under `parent`; return the document root.

    With `sub_path`, the site lands in `<docroot>/<sub_path>/`, as on GitHub project pages. `parent`
    must be a folder the servers' user can traverse.
    """
    docroot = Path(tempfile.mkdtemp(prefix="docroot-", dir=parent))
    docroot.chmod(0o755)
    shutil.copytree(site, docroot / sub_path if sub_path else docroot, dirs_exist_ok=True)
    return docroot


def _user_line(template: str) -> str:
    return template.format(SERVER_USER) if os.geteuid() == 0 else ""


@contextlib.contextmanager
def _running(command: list[str], port: int, log: Path | None = None) -> Iterator[str]:
    """Run a server process until the block ends; yields its base URL once it answers."""
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    try:
        wait_until_serving(f"http://127.0.0.1:{port}/", process, log)
        yield f"http://127.0.0.1:{port}/"
    finally:
        process.terminate()
        process.wait(10)


@contextlib.contextmanager
def nginx(docroot: Path) -> Iterator[str]:
    """Debian's nginx serving `docroot`; yields its base URL."""
    with tempfile.TemporaryDirectory(prefix="nginx-") as run:
        port = free_port()
        conf = Path(run) / "nginx.conf"
        conf.write_text(NGINX_CONF.format(user=_user_line("user {};"), run=run, port=port, docroot=docroot))
        command = [NGINX, "-p", run, "-e", f"{run}/error.log", "-c", str(conf), "-g", "daemon off;"]
        with _running(command, port, Path(run) / "error.log") as url:
            yield url


@contextlib.contextmanager
def apache(docroot: Path) -> Iterator[str]:
    """Debian's apache2 serving `docroot`; yields its base URL."""
    with tempfile.TemporaryDirectory(prefix="apache-") as run:
        os.chmod(run, 0o755)
        port = free_port()
        conf = Path(run) / "apache2.conf"
        conf.write_text(APACHE_CONF.format(user=_user_line("User {0}\nGroup {0}"), run=run, port=port,
                                           docroot=docroot))
        with _running([APACHE, "-f", str(conf), "-DFOREGROUND"], port, Path(run) / "error.log") as url:
            yield url


@contextlib.contextmanager
def http_server(docroot: Path) -> Iterator[str]:
    """`python3 -m http.server`, as a reader would start it; yields its base URL."""
    port = free_port()
    command = [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(docroot)]
    with _running(command, port) as url:
        yield url


@functools.cache
def mime_db_types() -> dict[str, str]:
    """Extension -> type as mime-db gives it (an IANA-registered type wins over the others)."""
    rank = {"iana": 0, "apache": 1, "nginx": 2}
    chosen: dict[str, tuple[int, str]] = {}
    for kind, entry in json.loads(MIME_DB.read_text(encoding="utf-8")).items():
        for extension in entry.get("extensions", []):
            candidate = (rank.get(entry.get("source", ""), 3), kind)
            chosen[extension] = min(chosen.get(extension, candidate), candidate)
    return {f".{extension}": kind for extension, (_rank, kind) in chosen.items()}


class _PagesHandler(QuietHandler):
    """GitHub Pages' types (mime-db), no custom headers."""

    extensions_map = {"": "application/octet-stream"}

    def guess_type(self, path: str) -> str:
        return self.extensions_map.get(Path(path).suffix.lower(), "application/octet-stream")


class HeadersHandler(QuietHandler):
    """The rules of the site's `_headers` file on top of a table of types (Netlify, Cloudflare Pages)."""

    rules: list[tuple[str, dict[str, str]]] = []
    prefix = "/"

    def _matching(self) -> dict[str, str]:
        path = "/" + self.path.split("?")[0].removeprefix(self.prefix)
        found: dict[str, str] = {}
        for pattern, headers in self.rules:
            if fnmatch.fnmatchcase(path, pattern):
                found.update(headers)
        return found

    def header_value(self, name: str, value: str) -> str:
        """The value sent for a header of `_headers` (a test may add to it)."""
        return value

    def guess_type(self, path: str) -> str:
        return self._matching().get("Content-Type") or super().guess_type(path)  # the table, then mimetypes

    def end_headers(self) -> None:
        for name, value in self._matching().items():
            if name != "Content-Type":
                self.send_header(name, self.header_value(name, value))
        super().end_headers()


def headers_handler(site: Path, types: dict[str, str], sub_path: str = "") -> type[HeadersHandler]:
    """A handler class that serves with the rules of `site/_headers` and, for the rest, `types`."""
    rules = read_headers((site / "_headers").read_text(encoding="utf-8"))
    return type("Headers", (HeadersHandler,), {
        "extensions_map": types, "rules": rules, "prefix": f"/{sub_path}/" if sub_path else "/"})


@contextlib.contextmanager
def github_pages(docroot: Path) -> Iterator[str]:
    """GitHub Pages as far as a site can tell: its types, no custom headers; yields its base URL."""
    handler = type("Pages", (_PagesHandler,), {"extensions_map": mime_db_types()})
    with StaticServer(docroot, handler) as server:
        yield server.url


@contextlib.contextmanager
def netlify(docroot: Path, site: Path, sub_path: str = "") -> Iterator[str]:
    """A host that applies `site/_headers` (Netlify, Cloudflare Pages); yields its base URL."""
    with StaticServer(docroot, headers_handler(site, mime_db_types(), sub_path)) as server:
        yield server.url


# host id -> the Debian package that must be installed for it (None: nothing to install)
HOSTS: dict[str, str | None] = {
    "nginx": "nginx",
    "apache": "apache2",
    "http.server": None,
    "github-pages": None,
    "netlify": None,
}


@contextlib.contextmanager
def serve(host: str, docroot: Path, site: Path, sub_path: str = "") -> Iterator[str]:
    """Serve `docroot` with `host` (a key of `HOSTS`); yields the URL of the site itself."""
    starters = {"nginx": nginx, "apache": apache, "http.server": http_server, "github-pages": github_pages,
                "netlify": functools.partial(netlify, site=site, sub_path=sub_path)}
    with starters[host](docroot) as url:
        yield url + (f"{sub_path}/" if sub_path else "")
