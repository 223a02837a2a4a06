"""The site serves our scripts without their comments (wiki/served_scripts.py), and otherwise as written."""

from __future__ import annotations

import re
from pathlib import Path

from wiki import served_scripts
from wiki.offline import SOURCE as SERVICE_WORKER

COMMENT_LINE = re.compile(r"^\s*//", re.MULTILINE)


def test_a_script_loses_its_comments_and_keeps_its_code() -> None:
    source = '// why\nconst url = "https://example.org/a//b"; /* how */\nexport const text = `// kept`;\n'
    assert served_scripts.without_comments(source) == (
        'const url = "https://example.org/a//b";\nexport const text = `// kept`;\n')


def test_the_site_serves_each_of_our_scripts_without_comments(site_dir: Path) -> None:
    names = [p.name for p in served_scripts.SOURCES.glob("*.js") if p.name != "calculators.js"]
    assert {"calculator-worker.js", "early.js", "offline.js"} <= set(names)
    for name in names:
        served = (site_dir / "assets" / "javascripts" / name).read_text(encoding="utf-8")
        source = (served_scripts.SOURCES / name).read_text(encoding="utf-8")
        # esbuild keeps a comment inside an object literal's properties (three in the worker), no other
        assert len(COMMENT_LINE.findall(served)) <= len(COMMENT_LINE.findall(source)) // 10, name
        assert served == served_scripts.without_comments(source), name
    worker = (site_dir / "sw.js").read_text(encoding="utf-8").split("\n", 1)[1]
    assert worker == served_scripts.without_comments(SERVICE_WORKER.read_text(encoding="utf-8"))
    assert len(COMMENT_LINE.findall(worker)) <= len(COMMENT_LINE.findall(SERVICE_WORKER.read_text("utf-8"))) // 10
