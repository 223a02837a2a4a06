"""The gettext catalogs, compiled from `i18n/<lang>/LC_MESSAGES/messages.po` into this package."""

from __future__ import annotations

import gettext
from collections.abc import Sequence
from functools import cache, lru_cache
from pathlib import Path

LOCALE_DIR = Path(__file__).resolve().parent / "locales"
DOMAIN = "messages"


@cache
def translations(lang: str) -> gettext.GNUTranslations:
    """The compiled catalog of `lang`; fails loudly when it was not compiled (no silent English)."""
    return gettext.translation(DOMAIN, localedir=str(LOCALE_DIR), languages=[lang])


@cache
def _gettext(lang: str, msgid: str) -> str:
    return translations(lang).gettext(msgid)


@lru_cache(maxsize=4096)  # keyed by the count too: bounded
def _ngettext(lang: str, singular: str, plural: str, count: int) -> str:
    return translations(lang).ngettext(singular, plural, count)


def text(lang: str, msgid: str, **params: object) -> str:
    """The translation of `msgid` in `lang`, with `{name}` placeholders filled from `params`."""
    translated = _gettext(lang, msgid)
    return translated.format(**params) if params else translated


def plural_text(lang: str, msgids: Sequence[str], count: int, **params: object) -> str:
    """The translation of a (singular, plural) msgid pair in the form `lang`'s Plural-Forms give `count`
    (Babel's CLDR rules, written into each catalog's header), placeholders filled."""
    return _ngettext(lang, msgids[0], msgids[1], count).format(**params)
