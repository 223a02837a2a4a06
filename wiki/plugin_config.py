"""The options of the `kentino` plugin (mkdocs.yml's `plugins:`), typed and checked by MkDocs."""

from __future__ import annotations

from mkdocs.config import config_options as opt
from mkdocs.config.base import Config


class KentinoConfig(Config):
    """`plugins: - kentino: {...}`; every option has a default, so `- kentino` alone is the site as published."""

    # Write the service worker and register it (wiki/offline.py); `mkdocs serve` never does (its live-reload
    # script is inline and its pages change under the reader).
    offline = opt.Type(bool, default=True)
    # The static-i18n plugin whose languages the site is built in (wiki/languages.py reads its options).
    i18n_plugin = opt.Type(str, default="i18n")
