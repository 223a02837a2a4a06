"""The gettext catalogs, compiled from `i18n/<lang>/LC_MESSAGES/messages.po` into this package; a
language's texts are read through its `widgets.locale.PageLocale`."""

from __future__ import annotations

import gettext
from functools import cache
from pathlib import Path

LOCALE_DIR = Path(__file__).resolve().parent / "locales"
DOMAIN = "messages"


@cache
def translations(lang: str) -> gettext.GNUTranslations:
    """The compiled catalog of `lang`; fails loudly when it was not compiled (no silent English)."""
    return gettext.translation(DOMAIN, localedir=str(LOCALE_DIR), languages=[lang])


def languages() -> list[str]:
    """The languages whose catalogs are compiled into this package: the site's, in the runtime's wheel."""
    return sorted(path.parent.parent.name for path in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.mo"))
