"""File modes of the built site: a web server's own user (www-data, nginx, apache) must read everything."""

from __future__ import annotations

import os
from pathlib import Path

FILE_MODE = 0o644
DIR_MODE = 0o755


def make_readable(site_dir: Path) -> None:
    """Give every folder of `site_dir` mode 0755 and every file 0644, whatever made them (a umask of
    077, `tempfile.mkdtemp`'s 0700 kept through a copy)."""
    site_dir.chmod(DIR_MODE)
    for folder, dirs, files in os.walk(site_dir):
        for name in dirs:
            (Path(folder) / name).chmod(DIR_MODE)
        for name in files:
            (Path(folder) / name).chmod(FILE_MODE)
