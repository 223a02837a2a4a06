"""The widgets' sentences, read as a reader reads them: whole sentences in each language, in the plural form
their number takes, with every placeholder filled and no English left in the Danish or French text.

Expectations come from their one source: the catalogs (i18n/<lang>/LC_MESSAGES/messages.po, read with Babel,
and through widgets/messages.py), CLDR's plural rules (Babel) and `calculators.run`; nothing is pinned.
"""

from __future__ import annotations

import re
from functools import cache
from html import unescape
from pathlib import Path
from string import Formatter
from typing import Any

import pytest
from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

import calculators
from widgets import strings
from widgets.locale import locale_of
from widgets.msgids import Plural
from widgets.view import explanation_key, view
from wiki.embed import find_embeds

ROOT = Path(__file__).resolve().parents[2]
LANGS = ("da", "fr")
# CLDR's plural categories in the order gettext numbers a catalog's forms (Babel's `to_gettext`).
CATEGORIES = ("zero", "one", "two", "few", "many", "other")
# Nouns French writes the same in the singular and the plural: a sentence whose English forms differ only
# by them may have one French form for every number.
INVARIABLE_FR = {"GPU", "GPUs"}
PLURALS = [(table, key, msgid) for table, entries in vars(strings).items()
           if table.isupper() and isinstance(entries, dict)
           for key, msgid in entries.items() if isinstance(msgid, Plural)]


@cache
def catalog(lang: str) -> Catalog:
    """A language's catalog as its .po file holds it."""
    with (ROOT / "i18n" / lang / "LC_MESSAGES" / "messages.po").open("rb") as handle:
        return read_po(handle, locale=lang)


def form_index(lang: str, count: int) -> int:
    """The catalog form CLDR's plural rule of `lang` gives `count` (one, many, other...)."""
    rule = Locale.parse(lang).plural_form
    tags = [tag for tag in CATEGORIES if tag in rule.tags or tag == "other"]
    return tags.index(rule(count))


def names(template: str) -> set[str]:
    """The placeholders of a format string."""
    return {field for _, field, _, _ in Formatter().parse(template) if field}


def test_the_catalogs_plural_forms_are_cldrs() -> None:
    for lang in LANGS:
        rule = Locale.parse(lang).plural_form
        assert catalog(lang).num_plurals == len([t for t in CATEGORIES if t in rule.tags or t == "other"])


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("table", "key", "msgid"), PLURALS, ids=[f"{t}[{k}]" for t, k, _ in PLURALS])
def test_every_plural_sentence_renders_for_one_and_for_many(lang: str, table: str, key: Any,
                                                            msgid: Plural) -> None:
    loc = locale_of(lang)
    assert names(msgid.singular) == names(msgid.plural) and msgid.count in names(msgid.plural), (table, key)
    forms = catalog(lang)[msgid.singular].string
    assert isinstance(forms, tuple) and len(forms) == catalog(lang).num_plurals and all(forms)
    fill = {name: f"[{name}]" for name in names(msgid.plural)}
    rendered = {}
    for count in (1, 2, 5, 21, 100, 1_000_000):
        number = loc.numbers.decimal(count, 0)
        text = loc.plural_text(msgid, count, **{**fill, msgid.count: number})
        assert text == forms[form_index(lang, count)].format(**{**fill, msgid.count: number})
        assert "{" not in text and "}" not in text and number in text
        rendered[count] = text
    # one and two are two sentences wherever the grammar changes with the number
    english = set(msgid.singular.split()) ^ set(msgid.plural.split())
    if not (lang == "fr" and english <= INVARIABLE_FR):
        assert rendered[1].replace("1", "#") != rendered[2].replace(loc.numbers.decimal(2, 0), "#"), forms


def as_pattern(template: str) -> re.Pattern[str]:
    """A translated template as a pattern: its words exactly, any text in place of a placeholder."""
    parts = [re.escape(literal) + (r".+?" if field else "") for literal, field, _, _ in Formatter().parse(template)]
    return re.compile("".join(parts))


def forms_of(lang: str, msgid: Plural) -> tuple[str, ...]:
    return catalog(lang)[msgid.singular].string


def subject_of(shown: dict) -> str:
    found = re.search(r'data-output="subject">([^<]*)<', shown["html"]["badge"])
    return unescape(found.group(1)) if found else ""


# (calculator, inputs, where the sentence is, its msgid, the value that picks its form)
CASES = [
    ("throughput", {"model": "llama-3.1-405b", "concurrency": 8}, "explanation", None, "copies"),
    ("throughput", {}, "explanation", None, "copies"),
    ("vram_fit", {"concurrency": 1}, "subject", strings.SUBJECTS["vram_fit"], "concurrency"),
    ("vram_fit", {}, "subject", strings.SUBJECTS["vram_fit"], "concurrency"),
    ("workload", {"concurrency": 1}, "notes", strings.NOTES["concurrency_below_target"], "concurrency"),
    ("workload", {}, "notes", strings.NOTES["concurrency_below_target"], "concurrency"),
    ("training_time", {"gpus": 1, "gpus_per_node": 1, "model": "llama-3.1-8b", "tokens_t": 0.001}, "subject",
     strings.SUBJECTS["training_time"], "gpus"),
    ("scaling", {"gpus_per_node": 1, "nodes": 2, "model": "llama-3.1-8b"}, "subject",
     strings.SUBJECTS[("scaling", "tp")], "gpus_per_node"),
    ("replicas", {}, "explanation", strings.EXPLANATIONS[("replicas", "dp_replicas")], "replicas"),
]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("name", "inputs", "where", "msgid", "count"), CASES)
def test_a_widget_says_its_sentence_in_the_form_its_number_takes(lang: str, name: str, inputs: dict, where: str,
                                                                 msgid: Plural | None, count: str) -> None:
    result = calculators.run(name, inputs)
    msgid = msgid or strings.EXPLANATIONS[explanation_key(name, result)]
    number = result["values"][count] if count in result["values"] else result["inputs"][count]
    shown = view(name, inputs, lang)
    said = {"explanation": [shown["explanation"]], "subject": [subject_of(shown)], "notes": shown["notes"]}[where]
    forms = forms_of(lang, msgid)
    right = as_pattern(forms[form_index(lang, number)])
    assert any(right.fullmatch(s) for s in said), (said, forms[form_index(lang, number)])
    wrong = {f for i, f in enumerate(forms) if i != form_index(lang, number) and f != forms[form_index(lang, number)]}
    assert not any(as_pattern(f).fullmatch(s) for f in wrong for s in said)


# ---- no placeholder and no English in a Danish or French widget ---------------------------------------------

def english_only_words() -> set[str]:
    """Words of the English msgids that no Danish or French translation uses (model and GPU names aside)."""
    def words(text: str) -> set[str]:
        return {w.lower() for w in re.findall(r"[^\W\d_]{4,}", re.sub(r"\{\w+\}", " ", text))}

    english: set[str] = set()
    for table, entries in vars(strings).items():
        if table.isupper() and isinstance(entries, dict):
            for msgid in entries.values():
                english |= words(" ".join(msgid[:2]) if isinstance(msgid, tuple) else msgid)
    used = set()
    for lang in LANGS:
        for message in catalog(lang):
            if message.id:
                used |= words(" ".join(message.string) if isinstance(message.string, tuple) else message.string)
    names = " ".join([m["name"] for m in calculators.MODELS.values()] + [g["name"] for g in calculators.GPUS.values()])
    return english - used - words(names)


def embedded_presets() -> list[tuple[str, dict[str, Any]]]:
    """Every calculator fence of the articles (docs/), with its presets."""
    found = []
    for path in sorted((ROOT / "docs").rglob("*.md")):
        for _, _, embed in find_embeds(path.read_text(encoding="utf-8"), str(path)):
            if embed.kind == "calculator" and (embed.name, embed.presets) not in found:
                found.append((embed.name, embed.presets))
    return found


# Inputs that take each calculator through its verdicts and notes: loads of one request and of many, small and
# large models, one node and several, each workload and layout.
SWEEP = [
    {"model": "llama-3.1-8b", "concurrency": 1, "context": 4096},
    {"model": "llama-3.1-405b"},
    {"model": "llama-3.1-405b", "concurrency": 0},
    {"model": "llama-3.1-8b", "gpu": "l4", "gpus": 1},
    {"model": "llama-3.1-70b", "gpus": 2},
    {"model": "llama-3.1-405b", "gpus": 4, "concurrency": 256},
    {"model": "custom", "params_b": 2000, "layers": 512, "heads": 1024, "kv_heads": 256, "head_dim": 1024,
     "gpu": "l4", "gpus": 1},
    {"model": "llama-3.1-70b", "target_tokens_per_s": 100},
    {"model": "llama-3.1-70b", "input_tokens": 1000, "output_tokens": 200},
    {"model": "llama-3.1-70b", "precision": "bf16", "gpus": 2, "concurrency": 1, "context": 1024},  # tight
    {"model": "llama-3.1-8b", "precision": "int4", "kv_precision": "fp8", "gpus": 1, "concurrency": 256,
     "context": 1024},  # compute-bound
    {"model": "llama-3.1-405b", "gpu": "l40s", "gpus": 8, "concurrency": 1, "context": 4096},  # INT4 in one box
    {"model": "llama-3.1-405b", "precision": "int4", "concurrency": 8},  # two 4-GPU nodes
    {"concurrency": 60},  # within the engines' range
    {"model": "deepseek-v3"}, {"model": "gpt-oss-120b"},  # latent attention, experts, a sliding window
    {"model": "custom", "params_b": 7},
    {"model": "llama-3.1-70b", "input_tokens": 1000, "output_tokens": 200, "context": 8192},
    {"model": "llama-3.1-70b", "gpu": "l40s", "precision": "bf16", "concurrency": 64, "context": 1024,
     "output_tokens": 256},  # all-reduces over PCIe
]
WORKLOADS = [{"workload": w, "model": m} for w in ("inference", "lora", "qlora", "full_finetune", "pretrain")
             for m in ("llama-3.1-8b", "llama-3.1-70b", "llama-3.1-405b")]
LAYOUTS = [{"parallelism": p, "nodes": n, "fabric": "ib-400"} for p in ("tp", "dp", "fsdp", "pp", "tp_pp")
           for n in (1, 2)]
TRAINING = [{"method": m, "model": "llama-3.1-8b"} for m in ("full", "lora", "qlora")] + [
    {"tokens_t": 0.01, "gpu": "h100-sxm"}, {"tokens_t": 1.5, "gpu": "h100-sxm"}, {"gpus": 60},
    {"global_batch": 1, "gpus": 64, "parallelism": "dp"},
    {"target_tokens_per_s": 10, "node_tokens_per_s": 1000}, {"spare": True, "target_requests_per_s": 2},
    {"workload": "qlora", "model": "llama-3.1-70b", "gpu": "l40s", "gpus": 1},  # checkpoints offloaded
]


def sweep() -> list[tuple[str, dict[str, Any]]]:
    cases = [(name, {}) for name in calculators.CALCULATORS] + embedded_presets()
    for name, spec in calculators.CALCULATORS.items():
        fields = {f["name"] for f in spec["inputs"]}
        for inputs in SWEEP + WORKLOADS + LAYOUTS + TRAINING:
            if set(inputs) <= fields:
                cases.append((name, inputs))
    return cases


def said(shown: dict) -> list[str]:
    """Every text of a result a reader sees: the verdict line, the explanation, the values, the notes, the steps."""
    return [unescape(re.sub(r"<[^>]+>", "", shown["html"]["badge"])), shown["verdict_text"], shown["explanation"],
            *shown["outputs"].values(), *shown["notes"], *(r["question"] + " " + r["answer"] for r in shown["trace"])]


CASES_SWEPT = sweep()


def test_the_sweep_reaches_every_verdict_and_note() -> None:
    reached = {(name, calculators.run(name, inputs).get("verdict")) for name, inputs in CASES_SWEPT}
    notes = {n["code"] for name, inputs in CASES_SWEPT for n in calculators.run(name, inputs).get("notes", [])}
    verdicts = {(name, v) for name, spec in calculators.CALCULATORS.items() for v in spec["verdicts"]}
    assert verdicts <= reached, sorted(verdicts - reached)
    declared = {code for spec in calculators.CALCULATORS.values() for code in spec["notes"]}
    # custom_inputs_ignored: a form's custom-model fields never reach the calculator for a catalogue model
    assert declared - notes == {"custom_inputs_ignored"}, sorted(declared - notes)


@pytest.mark.parametrize("lang", LANGS)
def test_no_sentence_keeps_a_placeholder_or_an_english_word(lang: str) -> None:
    english = english_only_words()
    assert {"fits", "requests", "throughput", "replicas"} <= english  # the check can see English
    problems = []
    for name, inputs in CASES_SWEPT:
        shown = view(name, dict(inputs), lang)
        if not shown["ok"]:
            problems += [f"{name} {inputs}: {message}" for message in shown["errors"].values()
                         if "{" in message or {w.lower() for w in re.findall(r"[^\W\d_]{4,}", message)} & english]
            continue
        for text in said(shown):
            left = re.findall(r"[{}]", text)
            words = {w.lower() for w in re.findall(r"[^\W\d_]{4,}", text)} & english
            if left or words:
                problems.append(f"{name} {inputs}: {sorted(words) or left}: {text}")
    assert not problems, "\n".join(problems)
