"""The language is bound once: `widgets.view.view` takes the request's `lang` and passes one `PageLocale`
(numbers, messages, units, labels) to everything that writes a text; only the few functions that make
those objects take the language's code."""

from __future__ import annotations

import ast

import pytest

from tests.conftest import ROOT
from widgets import numbers, strings
from widgets.locale import PageLocale, locale_of
from widgets.view import view

# Where a language's code may still be a parameter: the entry both sides call, and what makes the objects.
TAKES_THE_CODE = {
    "widgets/view.py: view",
    "widgets/locale.py: locale_of",
    "widgets/locale.py: PageLocale.__init__",
    "widgets/numbers.py: of",
    "widgets/numbers.py: Numbers.__init__",
    "widgets/messages.py: translations",
}


def functions_taking_the_code() -> set[str]:
    """Every function of widgets/ with a parameter named `lang`, as "path: [Class.]name"."""
    found = set()
    for path in sorted((ROOT / "widgets").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        owners = {id(child): node.name for node in ast.walk(tree) if isinstance(node, ast.ClassDef)
                  for child in node.body}
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                names = [a.arg for a in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs)]
                if "lang" in names:
                    owner = owners.get(id(node))
                    found.add(f"{path.relative_to(ROOT).as_posix()}: {owner + '.' if owner else ''}{node.name}")
    return found


def test_only_the_entry_and_the_makers_take_a_languages_code() -> None:
    """A new function that writes a text takes the `PageLocale` it is given, not `lang` (issue #30)."""
    assert functions_taking_the_code() == TAKES_THE_CODE


def test_the_scan_finds_a_function_that_takes_the_code(tmp_path, monkeypatch) -> None:
    (tmp_path / "widgets").mkdir()
    (tmp_path / "widgets" / "extra.py").write_text("class A:\n    def words(self, value, lang):\n        pass\n"
                                                   "def label(lang: str) -> str:\n    return lang\n")
    monkeypatch.setattr(f"{__name__}.ROOT", tmp_path)
    assert functions_taking_the_code() == {"widgets/extra.py: A.words", "widgets/extra.py: label"}


@pytest.mark.parametrize("lang", ["da", "fr"])
def test_one_locale_per_language_and_its_parts_are_that_language(lang: str) -> None:
    loc = locale_of(lang)
    assert locale_of(lang) is loc and isinstance(loc, PageLocale)
    assert loc.lang == loc.numbers.lang == lang and loc.numbers is numbers.of(lang)
    # the catalog is the language's own: the widget's words differ from the English msgid and between languages
    other = locale_of("fr" if lang == "da" else "da")
    assert loc.text(strings.UI["state_ready"]) not in (strings.UI["state_ready"], other.text(strings.UI["state_ready"]))
    assert view("vram_fit", {}, lang)["lang"] == lang


def test_the_neutral_form_reads_without_a_babel_locale() -> None:
    neutral = numbers.of(numbers.NEUTRAL)
    assert neutral.parse("32768") == 32768 and neutral.parse("0.65") == 0.65
    assert "locale" not in vars(neutral)  # cached_property: never parsed as a Babel locale
