"""A shared link's values for one widget, read as typed text is read, with a word for those left out.

A link (the URL fragment, grammar in `overrides/assets/javascripts/links.js`) carries a widget's values
as text in one recorded form: `numbers.NEUTRAL` (what the page writes: `32768`, `0.65`, choice ids), or
the language of the page that wrote typed text not yet computed (the language switcher). The page
sends them apart from the form's own text (`widgets/protocol.py`, `ViewRequest.link`); `merge` lays
them over the form, and `widgets.view` parses each number with the same parser and messages as a typed
one, in the link's form. A value this widget cannot take at all (a field it does not have, a choice
it no longer offers: an old link) is left out and said so, localized; the link's other values apply.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from widgets import numbers, strings
from widgets.locale import PageLocale
from widgets.messages import translations

MAX_VALUE = 100  # characters of one value the page reads from a link (calculators.js cuts there too)
LANGUAGE = re.compile(r"[a-z]{2,3}(?:_[A-Z]{2})?")


def form_of(link: dict[str, Any]) -> str:
    """The form a link's values are written in: `numbers.NEUTRAL` unless it names a language of the site
    (one with a catalog: loaded already in the browser's snapshot, which may not have the files yet)."""
    form = link.get("form")
    if not isinstance(form, str) or not LANGUAGE.fullmatch(form):
        return numbers.NEUTRAL
    try:
        translations(form)
    except OSError:
        return numbers.NEUTRAL
    return form


def merge(name: str, fields: dict[str, dict[str, Any]], inputs: dict[str, Any], link: dict[str, Any] | None,
          loc: PageLocale) -> tuple[dict[str, Any], dict[str, str], list[str]]:
    """The form's `inputs` with the link's values over them, the form of each value taken from the link
    (key -> form), and the notices (in `loc`'s language) for the link's values left out."""
    if not link or not isinstance(link.get("values"), dict):
        return inputs, {}, []
    form = form_of(link)
    merged, forms, notices = dict(inputs), {}, []
    unknown = False
    for key, value in link["values"].items():
        field = fields.get(key)
        if field is None or not isinstance(value, str):
            unknown = True
            continue
        if field["type"] == "choice" and value not in (field["choices"] or ()):
            shown = merged.get(key, field["default"])
            notices.append(loc.text(strings.UI["link_choice_gone"], field=loc.label(key, name),
                                    shown=loc.choice(key, str(shown))))
            continue
        merged[key] = value[:MAX_VALUE]
        forms[key] = form
    if unknown:
        notices.append(loc.text(strings.UI["link_field_unknown"]))
    return merged, forms, notices


def shown(fields: dict[str, dict[str, Any]], raw: dict[str, Any], forms: dict[str, str], parsed: dict[str, Any],
          loc: PageLocale, written: Callable[[dict[str, Any], Any, PageLocale], str]) -> dict[str, str]:
    """The link's values as this page's fields show them when the view fails: a value that parsed as the
    field writes it (`written`), a number that did not parse for another reason in this page's way
    (`32.768` from a link is `32,768` here, next to "Enter a whole number"), anything else as it came."""
    texts = {}
    for key, form in forms.items():
        if key in parsed:
            texts[key] = written(fields[key], parsed[key], loc)
        elif fields[key]["type"] in ("int", "float"):
            texts[key] = loc.numbers.rewrite(raw[key], form)
        else:
            texts[key] = str(raw[key])
    return texts
