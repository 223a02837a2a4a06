"""The view of one calculator run: every text a widget shows, localized, as plain JSON-able data.

`view(name, inputs, lang)` is the single function both sides call: the build renders it into the
static HTML (`wiki/templates/widget.html`), the browser worker returns it to the page, which only
writes these strings into the elements marked `data-output`. Typed text is parsed here too.
"""

from __future__ import annotations

import math
import string
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import calculators
from widgets import links, markup, numbers, strings, svg, tables
from widgets.locale import DIGITS, PageLocale, locale_of
from widgets.msgids import Plural
from widgets.presentations import PRESENTATIONS

if TYPE_CHECKING:
    from widgets.protocol import View, ViewFailure

# What a widget shows (each spec's `shown`, `ranges`, `figure`) is declared on the calculators' specs
# (calculators/spec.py); shown values made of a low and a high output, by name:
SPECS = calculators.CALCULATORS
RANGES = {r["name"]: r for calc in SPECS.values() for r in calc["ranges"]}
NUMERIC = {"int", "float"}
# Typed text by unit: a share as "70 %", "70" or "0,7"; a token count as "128k" too.
PARSERS = {"ratio": numbers.Numbers.parse_share, "tokens": numbers.Numbers.parse_tokens}
# Suggested values of a field by unit (a <datalist>): the usual context lengths, 4k to 128k tokens.
PRESETS = {"tokens": (4096, 8192, 32768, 131072)}
# Looked up on every keystroke: each calculator's input specs by name, and every output spec by name.
FIELDS = {name: {f["name"]: f for f in calc["inputs"]} for name, calc in calculators.CALCULATORS.items()}
OUTPUTS = {out["name"]: out for calc in calculators.CALCULATORS.values() for out in calc["outputs"]}
# The unit of every input and output by name (a note's parameters are named after them too), and of the
# note parameters that are neither: a counted one is written with its noun ("32 requests", strings.py).
UNIT_OF = {item["name"]: item["unit"] for calc in SPECS.values() for item in (*calc["inputs"], *calc["outputs"])}
PARAM_UNITS = {"boxes": "nodes", "needed_concurrency": "requests", "max_concurrency_tp": "requests",
               "max_concurrency_dp": "requests", "frontier_gpus": "gpus", "per_request_tokens_per_s": "tokens_per_s"}
# Counted placeholders written as a bare number: a layout's degrees ("TP 8") and the low end of a range
# of counts ("58 to 62 requests"); and, in a plural sentence, the number that picks its form.
BARE = frozenset({"tp_degree", "pp_degree", "dp_degree", "max_concurrency_low"})


def input_value_text(field: dict[str, Any], value: Any, loc: PageLocale) -> str:
    """How a form field shows a value: localized number (a share as a percentage), or the choice id."""
    if field["type"] in NUMERIC:
        return loc.numbers.share_text(value) if field["unit"] == "ratio" else loc.numbers.input_text(value)
    return _plain_text(field, value)


def _plain_text(field: dict[str, Any], value: Any) -> str:
    # A choice's id or a checkbox's state: written the same on every page and in links.
    return ("true" if value else "false") if field["type"] == "bool" else str(value)


def parse_inputs(name: str, raw: dict[str, Any], loc: PageLocale,
                 forms: dict[str, str] | None = None) -> tuple[dict[str, Any], dict[str, dict]]:
    """Turn typed text into calculator inputs; return (inputs, errors by field).

    Numbers typed in a form arrive as strings and are read in the page's locale, a link's in the form
    it records (`forms`, key -> `numbers.NEUTRAL` or a language), by the same parser; values that are
    already numbers (build-time presets) pass through for `calculators.run` to validate.
    """
    forms = forms or {}
    fields = FIELDS.get(name, {})
    inputs: dict[str, Any] = {}
    errors: dict[str, dict] = {}
    for key, value in raw.items():
        field = fields.get(key)
        if field and field["group"] == "custom_model" and raw.get("model") != "custom":
            continue  # a form always carries the custom-model fields; they count only for a custom model
        if field is None or not isinstance(value, str):
            inputs[key] = value
        elif field["type"] in NUMERIC:
            if not value.strip():
                errors[key] = {"code": "required", "params": {}}
                continue
            try:
                parser = PARSERS.get(field["unit"], numbers.Numbers.parse)
                reader = numbers.of(forms[key]) if key in forms else loc.numbers
                inputs[key] = parser(reader, value, field["type"] == "int")
            except numbers.NotANumber as problem:
                errors[key] = number_error(field, problem)
        elif field["type"] == "bool":
            inputs[key] = {"true": True, "false": False}.get(value, value)
        else:
            inputs[key] = value
    return inputs, errors


def number_error(field: dict[str, Any], problem: numbers.NotANumber) -> dict[str, Any]:
    """The error of text the parser refused: too large says the field's bound, ambiguous both readings."""
    if isinstance(problem, numbers.NumberTooLarge):
        code, bound = ("too_small", "min") if problem.negative else ("too_large", "max")
        if field[bound] is None:
            return {"code": "not_finite", "params": {}}
        return {"code": code, "params": {bound: field[bound]}}
    if isinstance(problem, numbers.AmbiguousNumber):
        return {"code": problem.code, "params": {"grouped": problem.grouped, "decimal": problem.decimal}}
    return {"code": problem.code, "params": {}}


def error_text(field: dict[str, Any] | None, code: str, params: dict[str, Any], loc: PageLocale) -> str:
    """The catalog's message for an error code, its numbers localized."""
    msgid = strings.ERRORS.get(code, strings.ERRORS["internal_error"])
    # The example is the field's own default: a whole number for an integer field, a percentage for a share.
    fmt = {"example": input_value_text(field, field["default"], loc) if field else loc.numbers.input_text(1.5)}
    for bound in ("min", "max"):
        if bound in params and field is not None:
            fmt[bound] = input_value_text(field, params[bound], loc)
    for reading in ("grouped", "decimal"):  # the two readings of ambiguous text, written the page's way
        if reading in params:
            fmt[reading] = loc.numbers.write(params[reading])
    return loc.text(msgid, **{k: v for k, v in fmt.items() if "{" + k + "}" in msgid})


def format_value(name: str, value: Any, values: dict[str, Any], loc: PageLocale) -> str:
    """Format one output value for display, by its kind and unit in the calculator's spec."""
    if name in RANGES:
        low, high = values[RANGES[name]["low"]], values[RANGES[name]["high"]]
        if RANGES[name]["kind"] == "ratio":
            # Rounded outwards to 0.1 %, so that a low end under a line never reads as on it (0.5995: 59.9 %).
            low, high = math.floor(low * 1000 + 1e-9) / 1000, math.ceil(high * 1000 - 1e-9) / 1000
            return loc.text(strings.UNITS["range"], low=loc.numbers.percent(low), high=loc.numbers.percent(high))
        if RANGES[name]["kind"] == "float":  # in the unit of its outputs
            unit = OUTPUTS[RANGES[name]["low"]]["unit"]
            digits = DIGITS.get(unit, 2)
            span = loc.text(strings.UNITS["range"], low=loc.numbers.decimal(low, digits),
                            high=loc.numbers.decimal(high, digits))
            return loc.text(strings.UNITS[unit], value=span)
        if low == high:
            return loc.text(strings.UNITS["multiplier"], value=loc.numbers.decimal(low, 1))
        return loc.text(strings.UNITS["multiplier_range"],
                        low=loc.numbers.decimal(low, 1), high=loc.numbers.decimal(high, 1))
    return loc.formatted(OUTPUTS[name]["kind"], OUTPUTS[name]["unit"], value)


def say(loc: PageLocale, msgid: str | Plural, fill: Callable[[str, bool], str],
        number: Callable[[str], float] | None = None) -> str:
    """A whole sentence of `loc`'s catalog, each placeholder written by `fill(name, bare)`; a plural
    sentence (`widgets.msgids.NP_`) in the form the number of its count (`number(name)`) takes, that count bare."""
    if isinstance(msgid, Plural):
        names = {*_placeholders(msgid.singular), *_placeholders(msgid.plural)}
        fmt = {name: fill(name, name == msgid.count or name in BARE) for name in names}
        count = number(msgid.count) if number else 0
        return loc.plural_text(msgid, round(count), **fmt)
    return loc.text(msgid, **{name: fill(name, name in BARE) for name in _placeholders(msgid)})


def explanation_key(name: str, result: dict[str, Any]) -> tuple[str, str]:
    """The explanation a result takes, as `strings.EXPLANATIONS` keys it: its verdict's, or the variant its
    calculator's presentation names (`widgets/presentations/<name>.py`)."""
    return name, PRESENTATIONS[name].explanation_key(result)


def explanation(name: str, result: dict[str, Any], loc: PageLocale) -> str:
    """One or two whole sentences that say why the verdict is what it is, from the values."""
    values, inputs = result["values"], result["inputs"]

    def fill(field: str, bare: bool) -> str:
        if field == "weights_limit":
            return loc.numbers.percent(inputs["weights_limit"])
        if field in RANGES:
            return format_value(field, None, values, loc)
        value = values[field] if field in values else inputs[field]  # what the calculator used, else as typed
        if UNIT_OF.get(field) in strings.COUNTED:
            return loc.quantity(UNIT_OF[field], value, bare)
        if field == "cluster_failure_rate":
            return loc.numbers.decimal(value, 1)
        if field in values:
            return format_value(field, value, values, loc)
        return loc.numbers.decimal(value, 2)

    own = PRESENTATIONS[name]
    return say(loc, own.explanations[own.explanation_key(result)], fill,
               lambda field: values[field] if field in values else inputs[field])


@lru_cache(maxsize=256)
def _placeholders(msgid: str) -> tuple[str, ...]:
    return tuple(f for _, f, _, _ in string.Formatter().parse(msgid) if f)


def note_text(note: dict[str, Any], loc: PageLocale) -> str:
    """A note's sentence, its placeholders the note's parameters, written by their unit."""
    params = note["params"]

    def fill(name: str, bare: bool) -> str:
        return loc.quantity(PARAM_UNITS.get(name) or UNIT_OF.get(name), params[name], bare)

    return say(loc, strings.NOTES[note["code"]], fill, params.__getitem__)


def node_text(inputs: dict[str, Any], loc: PageLocale) -> str:
    """The reader's node in words: "8 × RTX Pro 6000 Blackwell (768 GB)"."""
    gpu = calculators.GPUS[inputs["gpu"]]
    return loc.text(strings.UNITS["node"], gpus=loc.numbers.decimal(inputs["gpus"], 0), gpu=gpu["name"],
                    memory=loc.numbers.gigabytes(inputs["gpus"] * gpu["memory_gb"]))


def model_text(inputs: dict[str, Any], loc: PageLocale) -> str:
    """The model by its name, or a custom model by its size ("a 70B model")."""
    if inputs["model"] == "custom":
        return loc.text(strings.UNITS["custom_model_size"], value=loc.numbers.decimal(inputs["params_b"], 1))
    return loc.choice("model", inputs["model"])


def trace(name: str, result: dict[str, Any], loc: PageLocale) -> list[dict[str, str]]:
    """The decision flow's steps, each question (naming the reader's node and load) with its answer."""
    rows = []
    inputs = result["inputs"]

    def fill(field: str, bare: bool) -> str:
        return node_text(inputs, loc) if field == "node" else loc.quantity(UNIT_OF.get(field), inputs[field], bare)

    for step in result["values"].get("trace", []):
        answer = strings.UI["answer_yes" if step["answer"] else "answer_no"]
        rows.append({"step": loc.numbers.decimal(step["step"], 0),
                     "question": say(loc, PRESENTATIONS[name].questions[step["question"]], fill, inputs.__getitem__),
                     "answer": loc.text(answer)})
    return rows


def neutral_inputs(name: str, inputs: dict[str, Any]) -> dict[str, str]:
    """The inputs in the locale-neutral form of links (`0.7`, `32768`, choice ids), any page language reads."""
    fields = FIELDS.get(name, {})
    return {key: numbers.neutral(value) if fields[key]["type"] in NUMERIC else _plain_text(fields[key], value)
            for key, value in inputs.items() if key in fields}


def controls(name: str, inputs: dict[str, Any]) -> dict[str, Any]:
    """Which fields and options make sense for these inputs: the rest are shown disabled.

    The custom-model fields count only for a custom model; the fabric between nodes is unused on one
    node, and PCIe or NVLink (links inside a box) are no link between nodes.
    """
    fields = FIELDS.get(name, {})
    disabled = [key for key, f in fields.items() if f["group"] == "custom_model" and inputs.get("model") != "custom"]
    unavailable: dict[str, list[str]] = {}
    if "fabric" in fields:
        if inputs.get("nodes") == 1:
            disabled.append("fabric")
        unavailable["fabric"] = [c for c in fields["fabric"]["choices"]
                                 if calculators.FABRICS[c]["scope"] == "intra_node"]
    return {"disabled": disabled, "unavailable": unavailable}


def _conflicts(shown: dict[str, Any], inputs: dict[str, Any]) -> dict[str, dict]:
    # A choice the form offers disabled (`controls`), arriving anyway (an old link): the field's own error.
    return {key: {"code": "inter_node_fabric", "params": {}} for key, off in shown["unavailable"].items()
            if key not in shown["disabled"] and inputs.get(key) in off}


def subject(name: str, result: dict[str, Any], loc: PageLocale) -> str:
    """What the verdict answers, a noun phrase: the reader's load and hardware as the calculator used them
    (the node rate it computed, the GPUs rounded to whole nodes, the requests it served)."""
    values, inputs = result["values"], result["inputs"]
    msgid = PRESENTATIONS[name].subject_for(inputs)
    if msgid is None:
        return ""

    def value_of(field: str) -> Any:
        if field == "context" and {"input_tokens", "output_tokens"} <= values.keys():
            return values["input_tokens"] + values["output_tokens"]  # a request as served: prompt and answer
        return values[field] if field in values else inputs[field]

    def fill(field: str, bare: bool) -> str:
        if field == "node":
            return node_text(inputs, loc)
        if field == "model":
            return model_text(inputs, loc)
        if FIELDS[name].get(field, {}).get("type") == "choice":
            return loc.choice(field, inputs[field])
        if UNIT_OF.get(field) in strings.COUNTED or field not in values:
            return loc.quantity(UNIT_OF.get(field), value_of(field), bare)
        return format_value(field, values[field], values, loc)

    return say(loc, msgid, fill, value_of)


def view(name: str, raw_inputs: dict[str, Any], lang: str, link: dict[str, Any] | None = None) -> View | ViewFailure:
    """Everything a widget shows for these inputs in `lang`, as JSON-able data (`widgets/protocol.py`
    describes it), a shared link's values (`link`, see `widgets/links.py`) laid over them. Never raises
    for a language of the site (one with a compiled catalog)."""
    loc = locale_of(lang)
    try:
        return _view(name, raw_inputs, loc, link)
    except Exception:  # noqa: BLE001 - a widget shows a message, the page never breaks
        message = loc.text(strings.ERRORS["internal_error"])
        return {"calculator": name, "lang": lang, "ok": False, "errors": {"": message}, "summary": message,
                "first_error": "", "inputs": {}, "controls": {"disabled": [], "unavailable": {}}, "notices": []}


def _view(name: str, raw_inputs: dict[str, Any], loc: PageLocale,
          link: dict[str, Any] | None = None) -> View | ViewFailure:
    fields = FIELDS.get(name, {})
    raw_inputs, forms, notices = links.merge(name, fields, raw_inputs, link, loc)
    inputs, parse_errors = parse_inputs(name, raw_inputs, loc, forms)
    result = calculators.run(name, inputs)
    if result["ok"]:
        shown_controls = controls(name, result["inputs"])
        parse_errors = {**_conflicts(shown_controls, result["inputs"]), **parse_errors}
    errors = {key: error_text(fields.get(key), err["code"], err["params"], loc) for key, err in parse_errors.items()}
    if not result["ok"]:
        for err in result["errors"]:
            key = err["field"] or ""
            if key not in errors:
                errors[key] = error_text(fields.get(key), err["code"], err["params"], loc)
    if errors:
        # The result says which field to check (the first in the form's order); no value is computed.
        first = min(errors, key=lambda k: list(fields).index(k) if k in fields else -1)
        summary = errors[first] if first not in fields else \
            loc.text(strings.UI["check_field"], field=loc.label(first))
        # The fields stay usable (a custom model's fields open while it is the model chosen, whatever
        # their text; a field another one decides on stays enabled while that one is unreadable), and a
        # link's values show as this page writes them.
        return {"calculator": name, "lang": loc.lang, "ok": False, "errors": errors, "summary": summary,
                "first_error": first, "controls": controls(name, inputs),
                "inputs": links.shown(fields, raw_inputs, forms, inputs, loc, input_value_text), "notices": notices}
    values = result["values"]
    verdict = result["verdict"]
    verdict_text, tone = ((loc.formatted("key", None, verdict), PRESENTATIONS[name].verdicts[verdict].tone)
                          if verdict else ("", "info"))
    notes = [note_text(n, loc) for n in result["notes"] if n["code"] in strings.NOTES]
    steps = trace(name, result, loc)
    about = subject(name, result, loc)
    figure = tables.figure(name, result, loc) or svg.figure(name, result, loc)
    return {
        "calculator": name,
        "lang": loc.lang,
        "ok": True,
        "inputs": {key: input_value_text(fields[key], value, loc) for key, value in result["inputs"].items()},
        "outputs": {key: format_value(key, values.get(key), values, loc) for key in SPECS[name]["shown"]},
        "verdict": verdict,
        "verdict_text": verdict_text,
        "explanation": explanation(name, result, loc),
        "notes": notes,
        "trace": steps,
        # The HTML of the pieces that are more than a text, escaped; the page only places it.
        "html": {
            "badge": markup.badge(loc.text(strings.UI["verdict_line_subject" if about else "verdict_line"]),
                                  verdict or "", tone, verdict_text, about),
            "notes": markup.items(notes),
            "trace": markup.trace_items(steps),
            "figure": figure,
        },
        "neutral": neutral_inputs(name, result["inputs"]),
        "controls": shown_controls,
        "errors": {},
        "notices": notices,
    }
