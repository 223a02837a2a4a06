"""MkDocs hooks (see `hooks:` in mkdocs.yml): small post-build steps, each delegated to a module.

MkDocs loads this file by path, so the repository root is put on `sys.path` to import `wiki`.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mkdocs.config.defaults import MkDocsConfig  # noqa: E402
from mkdocs.plugins import event_priority  # noqa: E402

from wiki.material_bundle import patch_site  # noqa: E402
from wiki.search_index import write_split_indexes  # noqa: E402
from wiki.sitemap import rewrite_sitemap  # noqa: E402


def _languages(config: MkDocsConfig) -> tuple[str, list[str]]:
    langs = config.plugins["i18n"].config.languages
    default = next(lang.locale for lang in langs if lang.default)
    return default, [lang.locale for lang in langs if not lang.default]


def _site_root(config: MkDocsConfig, default: str, others: list[str]) -> Path:
    # static-i18n points site_dir at site/<lang> while it builds a non-default language.
    site_dir = Path(config.site_dir)
    return site_dir.parent if site_dir.name in others else site_dir


@event_priority(-200)  # after static-i18n (-100) has built every language and merged the index
def on_post_build(config: MkDocsConfig) -> None:
    default, others = _languages(config)
    root = _site_root(config, default, others)
    write_split_indexes(root, default, others)
    rewrite_sitemap(root, default)
    patch_site(root)
