"""The gettext markers of the widgets' texts: `N_` marks a msgid, `NP_` a msgid with its plural.

`pybabel extract -k N_ -k NP_:1,2` (`build.py catalogs`) finds them in `widgets/strings.py` (the vocabulary
the calculators share) and in `widgets/presentations/` (each calculator's own words); the translation
happens where the text is shown (`widgets.locale.PageLocale`).
"""

from __future__ import annotations

from typing import NamedTuple


def N_(message: str) -> str:  # noqa: N802 - the conventional gettext marker name
    """Mark a msgid for extraction without translating it."""
    return message


class Plural(NamedTuple):
    """A msgid with its plural (gettext `ngettext`), and the value whose number picks the form."""

    singular: str
    plural: str
    count: str = "value"


def NP_(singular: str, plural: str, count: str = "value") -> Plural:  # noqa: N802
    """Mark a msgid with a plural form (`pybabel extract -k NP_:1,2`); gettext picks the form by the
    number of the placeholder `count`, which the forms write as a bare number."""
    return Plural(singular, plural, count)
