"""What the widgets show, in both languages: the numbers from `calculators.run`, the words from the catalogs
(through widgets/messages.py), never a pinned translation or preset output."""

from __future__ import annotations

import math
import re
from html import unescape

import pytest

import calculators
from calculators import run
from widgets import numbers, strings
from widgets.locale import locale_of
from widgets.view import node_text, note_text, view

LANGS = ("da", "fr")


def counted(unit: str, value: float, lang: str) -> str:
    """A counted quantity as the catalogs write it: "32 requests", "1 node"."""
    loc = locale_of(lang)
    return loc.plural_text(strings.COUNTED[unit], int(value), value=loc.numbers.decimal(value, 0))


def unit(name: str, value: str, lang: str) -> str:
    """A value in one of the catalogs' units: "732 tok/s"."""
    return locale_of(lang).text(strings.UNITS[name], value=value)


def subject_of(shown: dict) -> str:
    """The text of the verdict line's subject, as the page shows it."""
    found = re.search(r'data-output="subject">([^<]*)<', shown["html"]["badge"])
    return unescape(found.group(1)) if found else ""


@pytest.mark.parametrize("lang", LANGS)
def test_effort_per_added_node_is_the_articles_figure_whatever_n(lang: str) -> None:
    loc = locale_of(lang)
    inputs = [{"target_tokens_per_s": 1500, "node_tokens_per_s": 1000}, {"target_tokens_per_s": 8000,
                                                                         "node_tokens_per_s": 1000}]
    results = [run("replicas", i)["values"] for i in inputs]
    shown = [view("replicas", i, lang)["outputs"] for i in inputs]
    low, high = results[0]["effort_per_added_node_min"], results[0]["effort_per_added_node_max"]
    assert all((v["effort_per_added_node_min"], v["effort_per_added_node_max"]) == (low, high) for v in results)
    per_node = loc.text(strings.UNITS["multiplier_range"], low=loc.numbers.decimal(low, 1),
                        high=loc.numbers.decimal(high, 1))
    assert shown[0]["effort_per_added_node"] == shown[1]["effort_per_added_node"] == per_node
    for v, out in zip(results, shown, strict=True):  # the total grows with the nodes
        assert out["effort_total"] == loc.text(strings.UNITS["multiplier_range"],
                                               low=loc.numbers.decimal(v["effort_total_min"], 1),
                                               high=loc.numbers.decimal(v["effort_total_max"], 1))
    assert results[1]["effort_total_min"] > results[0]["effort_total_min"]


@pytest.mark.parametrize("lang", LANGS)
def test_trace_questions_name_the_readers_node_and_load(lang: str) -> None:
    inputs = {"model": "llama-3.1-8b", "gpu": "l4", "gpus": 1, "concurrency": 64}  # more than a box of L4 holds
    result = run("decision", inputs)
    shown = view("decision", inputs, lang)
    loc = locale_of(lang)
    questions = [row["question"] for row in shown["trace"]]
    assert len(questions) == len(result["values"]["trace"]) >= 2
    assert shown["verdict"] == result["verdict"]
    node = node_text(result["inputs"], loc)
    assert node in questions[0] and calculators.GPUS["l4"]["name"] in node  # the reader's node, not 8 × 96 GB
    # the first question names the load, each count with its noun in its plural form
    assert counted("requests", result["inputs"]["concurrency"], lang) in questions[0]
    assert counted("tokens", result["inputs"]["context"], lang) in questions[0]
    assert not any("96" in q for q in questions)
    answers = [loc.text(strings.UI["answer_yes" if s["answer"] else "answer_no"]) for s in result["values"]["trace"]]
    assert [row["answer"] for row in shown["trace"]] == answers
    assert shown["notes"] == [note_text(n, loc) for n in result["notes"]]


@pytest.mark.parametrize("lang", LANGS)
def test_vram_fit_says_what_would_fit(lang: str) -> None:
    result = run("vram_fit", {"model": "llama-3.1-405b"})
    shown = view("vram_fit", {"model": "llama-3.1-405b"}, lang)
    assert shown["verdict"] == result["verdict"] == "does_not_fit"
    assert result["values"]["weights_gb"] <= result["values"]["usable_gb"]  # the weights fit, the load does not
    longest = counted("tokens", result["values"]["max_context"], lang)
    assert shown["outputs"]["max_context"] == longest and longest in shown["explanation"]
    assert counted("requests", result["values"]["max_concurrency"], lang) in shown["explanation"]


@pytest.mark.parametrize("lang", LANGS)
def test_efficiency_range_is_rounded_outwards(lang: str) -> None:
    """A low end under the 60 % line must not read as on it: the range is rounded outwards to 0.1 %."""
    loc = locale_of(lang)
    inputs = {"model": "llama-3.1-70b", "gpus_per_node": 8, "nodes": 1}
    values = run("scaling", inputs)["values"]
    low = math.floor(values["efficiency_low"] * 1000 + 1e-9) / 1000
    high = math.ceil(values["efficiency_high"] * 1000 - 1e-9) / 1000
    assert low < values["threshold"] <= values["efficiency_low"] + 0.001  # the case this rounding is for
    shown = view("scaling", inputs, lang)
    assert shown["outputs"]["efficiency_range"] == loc.text(strings.UNITS["range"], low=loc.numbers.percent(low),
                                                            high=loc.numbers.percent(high))
    assert shown["verdict"] == "does_not_fit"  # a 70B training state does not fit 8 x 96 GB


@pytest.mark.parametrize("lang", LANGS)
def test_throughput_shows_the_rate_its_range_and_the_first_token(lang: str) -> None:
    loc = locale_of(lang)
    result = run("throughput", {})
    values = result["values"]
    shown = view("throughput", {}, lang)
    assert shown["ok"] and shown["verdict"] == result["verdict"]
    out = shown["outputs"]
    rate = unit("tokens_per_s", loc.numbers.decimal(values["node_tokens_per_s"], 0), lang)
    span = unit("tokens_per_s", loc.text(strings.UNITS["range"],
                                         low=loc.numbers.decimal(values["node_tokens_per_s_low"], 0),
                                         high=loc.numbers.decimal(values["node_tokens_per_s_high"], 0)), lang)
    assert values["time_to_first_token_ms"] >= 1000  # seconds, one decimal
    ttft = unit("s", loc.numbers.decimal(values["time_to_first_token_ms"] / 1000, 1), lang)
    kw = unit("kw", loc.numbers.decimal(values["node_kw"], 1), lang)
    assert (out["node_tokens_per_s"], out["node_tokens_per_s_range"], out["time_to_first_token_ms"],
            out["node_kw"]) == (rate, span, ttft, kw)
    assert rate in shown["explanation"] and ttft in shown["explanation"]
    # the load it served: its copies of the model, the requests in all, the prompt's length
    for noun, value in (("requests", values["concurrency"]), ("tokens", values["input_tokens"]),
                        ("gpus", values["tensor_parallel"])):
        assert counted(noun, value, lang) in shown["explanation"]
    short = view("throughput", {"model": "llama-3.1-8b", "gpu": "h100-sxm", "gpus": "1", "context": "16",
                                "concurrency": "1"}, lang)
    ms = run("throughput", {"model": "llama-3.1-8b", "gpu": "h100-sxm", "gpus": 1, "context": 16,
                            "concurrency": 1})["values"]["time_to_first_token_ms"]
    assert ms < 1000  # under a second: milliseconds
    assert short["outputs"]["time_to_first_token_ms"] == unit("ms", loc.numbers.decimal(ms, 0), lang)


@pytest.mark.parametrize("lang", LANGS)
def test_throughput_at_concurrency_0_names_the_load_it_served(lang: str) -> None:
    """0 requests typed means as many as the node holds: the verdict line names the number served."""
    result = run("throughput", {"concurrency": 0})
    shown = view("throughput", {"concurrency": 0}, lang)
    served = result["values"]["concurrency"]
    assert served > 0 and counted("requests", served, lang) in subject_of(shown)
    context = result["values"]["input_tokens"] + result["values"]["output_tokens"]
    assert counted("tokens", context, lang) in subject_of(shown)


@pytest.mark.parametrize("lang", LANGS)
def test_training_time_shows_gpu_months_and_their_range(lang: str) -> None:
    loc = locale_of(lang)
    inputs = {"gpu": "h100-sxm", "tokens_t": 1.5}
    v = run("training_time", inputs)["values"]  # hundreds of GPU-months: no group separator in the figures
    months = unit("gpu_months", loc.numbers.decimal(v["gpu_months"], 0), lang)
    span = unit("gpu_months", loc.text(strings.UNITS["range"], low=loc.numbers.decimal(v["gpu_months_low"], 0),
                                       high=loc.numbers.decimal(v["gpu_months_high"], 0)), lang)
    shown = view("training_time", inputs, lang)
    assert shown["verdict"] == run("training_time", inputs)["verdict"]
    assert (shown["outputs"]["gpu_months"], shown["outputs"]["gpu_months_range"]) == (months, span)
    assert months in shown["explanation"] and span in shown["explanation"]
    assert counted("gpus", v["gpus"], lang) in subject_of(shown)  # the GPUs of the run, whole nodes


@pytest.mark.parametrize("lang", LANGS)
def test_replicas_show_the_node_rate_they_used(lang: str) -> None:
    """The verdict line names the node rate the calculator used: the computed one when the input is 0."""
    loc = locale_of(lang)
    auto_in = {"target_tokens_per_s": 1500}
    typed_in = {"target_tokens_per_s": 1500, "node_tokens_per_s": 1000}
    auto, typed = run("replicas", auto_in), run("replicas", typed_in)
    shown_auto, shown_typed = view("replicas", auto_in, lang), view("replicas", typed_in, lang)
    for result, shown in ((auto, shown_auto), (typed, shown_typed)):
        rate = unit("tokens_per_s", loc.numbers.decimal(result["values"]["node_tokens_per_s"], 0), lang)
        target = unit("tokens_per_s", loc.numbers.decimal(result["values"]["target_tokens_per_s"], 0), lang)
        assert shown["outputs"]["node_tokens_per_s"] == rate
        assert rate in subject_of(shown) and target in subject_of(shown)
        assert shown["notes"] == [note_text(n, locale_of(lang)) for n in result["notes"]]
    assert auto["inputs"]["node_tokens_per_s"] == 0 < auto["values"]["node_tokens_per_s"]
    zero = unit("tokens_per_s", loc.numbers.decimal(0, 0), lang)
    # never the input's 0, which means "computed" (a 0 that is not the end of a longer number)
    assert not re.search(r"(?<![\d.,\u00a0\u202f])" + re.escape(zero), subject_of(shown_auto))
    # where the computed rate comes from is said only when it was computed
    codes = [n["code"] for n in auto["notes"]], [n["code"] for n in typed["notes"]]
    assert "node_rate_from_throughput" in codes[0] and "node_rate_from_throughput" not in codes[1]
    assert shown_auto["outputs"]["replicas"] == counted("nodes", auto["values"]["replicas"], lang)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("name", "inputs", "field"), [
    ("training_memory", {"method": "full"}, "method"),
    ("decision", {"workload": "full_finetune"}, "workload"),
    ("decision", {"workload": "pretrain", "model": "llama-3.1-8b"}, "workload"),
    ("scaling", {"parallelism": "tp_pp", "nodes": 2}, "parallelism"),
])
def test_a_subject_names_the_choice_in_its_own_words(lang: str, name: str, inputs: dict, field: str) -> None:
    """A subject is one sentence per choice: the choice's capitalised form label is never glued into it."""
    result = run(name, inputs)
    about = subject_of(view(name, inputs, lang))
    label = locale_of(lang).text(strings.CHOICES.get(f"{field}:{result['inputs'][field]}")
                                 or strings.CHOICES[result["inputs"][field]])
    assert about and label not in about
    assert calculators.MODELS[result["inputs"]["model"]]["name"] in about


@pytest.mark.parametrize("lang", ["da", "fr"])
@pytest.mark.parametrize("inputs", [
    {"model": "llama-3.1-405b", "precision": "fp8", "gpu": "rtx-pro-6000", "gpus": 8, "concurrency": 32,
     "context": 32768},  # over capacity: the KV cache needs more than is left
    {"model": "llama-3.1-70b", "precision": "fp8", "gpu": "rtx-pro-6000", "gpus": 8, "concurrency": 8,
     "context": 8192},  # within it
])
def test_the_vram_figure_title_adds_up_to_the_vram(inputs: dict, lang: str) -> None:
    """The figure's title never lists parts that add up to more than the VRAM (a reader once read "weights
    406 GB, KV cache 541 GB, runtime 52.2 GB, free 0 GB, of 768 GB"): over capacity it says what the KV
    cache needs and what it has left."""
    from widgets.svg import vram_bar

    values = run("vram_fit", inputs)["values"]
    title = unescape(re.search(r"<title>(.*?)</title>", vram_bar(values, locale_of(lang)))[1])
    # each part is shown to three significant digits: they add up within 1 GB
    shown = [numbers.of(lang).parse(n) for n in re.findall(r"(\d[\d.,]*)[\u00a0\u202f ](?:GB|Go)", title)]
    over = values["weights_gb"] + values["kv_gb"] + values["overhead_gb"] > values["vram_gb"]
    if over:  # weights, overhead, KV needed, KV left, over, VRAM
        weights, overhead, needed, left, beyond, vram = shown
        assert weights + overhead + left == pytest.approx(vram, abs=1.0)
        assert needed - left == pytest.approx(beyond, abs=1.0)
    else:  # weights, KV, overhead, free, VRAM
        weights, kv, overhead, free, vram = shown
        assert weights + kv + overhead + free == pytest.approx(vram, abs=1.0)
