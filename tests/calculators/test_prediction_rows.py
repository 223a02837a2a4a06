"""The prediction rows (calculators/references/*.toml, issue 44): published runs registered before the model was
changed, each with its source's words, and the budgets that hold on them alone."""

import re
from pathlib import Path

import pytest

from calculators import reference as R
from calculators import reference_rows as rows
from calculators.catalog.gpus import GPU_BY_ID
from calculators.catalog.models import MODEL_BY_ID

RUNS = rows.runs()
PREDICTIONS = [run for run in RUNS if run.role == "prediction"]
BLACKWELL = ("rtx-5090", "rtx-pro-6000", "b200")


def _written(figure: float) -> set[str]:
    """The ways a source may print `figure`: as is, with thousands separators, without trailing zeros."""
    plain = repr(figure).removesuffix(".0")
    forms = {plain, f"{figure:g}", f"{figure:,}".removesuffix(".0"), f"{figure:.2f}", f"{figure:.1f}"}
    return {form for form in forms if float(form.replace(",", "")) == figure}


@pytest.mark.parametrize("run", RUNS, ids=[run.id for run in RUNS])
def test_a_row_carries_its_figure_in_its_source_s_words(run: rows.Run) -> None:
    """The excerpt is the source's text the figure was copied from: the figure is in it as printed."""
    numbers = set(re.findall(r"-?\d[\d,]*(?:\.\d+)?", run.excerpt))
    assert _written(run.figure) & numbers, (run.id, run.figure, run.excerpt)
    assert run.url.startswith("https://") and run.source


@pytest.mark.parametrize("run", RUNS, ids=[run.id for run in RUNS])
def test_a_row_s_run_is_one_a_reader_can_enter(run: rows.Run) -> None:
    """The model is in the catalog (or a custom shape), the GPU is in the catalog or mapped to its nearest card,
    and a throughput row states its load."""
    c = run.conditions
    assert c["model"] in MODEL_BY_ID or c["model"] == "custom", run.id
    assert rows.catalog_gpu(str(c["gpu"])) in GPU_BY_ID, run.id
    assert int(c["gpus"]) >= 1
    if run.calculator == "throughput":
        assert {"concurrency", "input_tokens", "output_tokens"} <= set(c), run.id
    if run.calculator == "training_memory":
        assert run.conditions.get("method", "full") in ("full", "lora", "qlora"), run.id


@pytest.mark.parametrize("calculator", list(R.PREDICTION_BUDGETS))
def test_each_budget_has_its_prediction_rows(calculator: str) -> None:
    """At least 12 prediction rows for each budget (issues 44 and 45), from more than one source."""
    mine = [run for run in PREDICTIONS if run.calculator == calculator]
    assert len(mine) >= R.MIN_PREDICTION_ROWS, (calculator, len(mine))
    assert len({run.url for run in mine}) >= 3, calculator


def _moe(run: rows.Run) -> bool:
    model = MODEL_BY_ID.get(run.conditions["model"])
    return bool(model and model.experts)


def _large_vocabulary(run: rows.Run) -> bool:
    model = MODEL_BY_ID.get(run.conditions["model"])
    return bool(model and model.vocab > 150_000)


def _blackwell(run: rows.Run) -> bool:
    return rows.catalog_gpu(str(run.conditions["gpu"])) in BLACKWELL


def _24_gb(run: rows.Run) -> bool:
    gpu = str(run.conditions["gpu"])
    return rows.CARDS.get(gpu, ("", ""))[1] == "24 GB" or (gpu in GPU_BY_ID and GPU_BY_ID[gpu].memory_gb <= 24)


CASES = {"MoE": _moe, "large vocabulary": _large_vocabulary, "Blackwell": _blackwell, "24 GB": _24_gb}
# No serving benchmark on a 24 GB card with its lengths and concurrency stated was found on 2026-12-07 (the RTX
# 3090/4090 runs seen gave a request rate, medians only, or ran llama.cpp): a known gap of the registration.
GAPS = {("throughput", "24 GB")}


@pytest.mark.parametrize(("calculator", "case"), [
    pytest.param(c, case, marks=[pytest.mark.xfail(strict=True, reason="no such run registered yet")]
                 if (c, case) in GAPS else []) for c in ("vram_fit", "throughput") for case in CASES])
def test_the_serving_prediction_rows_cover_what_issue_44_asks(calculator: str, case: str) -> None:
    """The serving budgets' rows include MoE, large-vocabulary, 24 GB and Blackwell runs."""
    assert any(CASES[case](run) for run in PREDICTIONS if run.calculator == calculator)


def test_no_prediction_row_cites_what_a_calibration_row_cites() -> None:
    cited = {ref.url for ref in R.REFERENCES if ref.calibration}
    assert not [run.id for run in PREDICTIONS if run.url in cited]


def test_prediction_rows_are_evaluated_through_the_widget_they_check() -> None:
    """Each prediction row is a band row of its calculator's shown value, and counts in that budget only."""
    for calculator in R.PREDICTION_BUDGETS:
        ids = {ref.id for ref in R.band_rows(calculator, "prediction")}
        assert ids == {run.id for run in PREDICTIONS if run.calculator == calculator}
        assert R.budget(calculator, "prediction")["rows"] == len(ids)
        assert not ids & {ref.id for ref in R.band_rows(calculator, "calibration")}


# The prediction rows inside 0.7-1.4x when they were registered (against a1b89c5): a change of the model may add
# to these, never take from them. Raise the counts with the change that moves them.
HELD_AT_LEAST = {"vram_fit": 4, "throughput": 6, "training_memory": 10, "training_time": 12}


def test_no_change_loses_a_prediction_row_it_held() -> None:
    assert set(HELD_AT_LEAST) == set(R.PREDICTION_BUDGETS)
    for calculator, held in HELD_AT_LEAST.items():
        found = R.budget(calculator, "prediction")
        assert round(found["inner_share"] * found["rows"]) >= held, (calculator, found)


@pytest.mark.xfail(strict=True, reason="issues 44 and 45: the prediction budgets do not hold yet "
                                       "(the engine's settings, the formats models ship in, the profile pass, the "
                                       "optimizers and per-GPU memory are still to model); remove this mark with "
                                       "the change that makes them hold")
def test_the_prediction_budgets_hold() -> None:
    """>= 80 % of each budget's prediction rows within 0.7-1.4x and none outside 0.5-2x; fails naming each row
    outside 0.7-1.4x with its source."""
    assert not R.prediction_failures(), "\n".join(R.prediction_failures())


def _write(folder: Path, text: str) -> Path:
    folder.mkdir(exist_ok=True)
    (folder / "rows.toml").write_text(text, encoding="utf-8")
    return folder


ROW = """[[row]]
id = "{id}"
role = "{role}"
quantity = "kv_cache_gib"
figure = 1.5
source = "s"
url = "https://example.org/"
excerpt = "KV 1.5 GiB"
{extra}
[row.run]
model = "llama-3.1-8b"
gpu = "h100-sxm"
gpus = 1
"""


@pytest.mark.parametrize(("text", "message"), [
    (ROW.format(id="a", role="prediction", extra=""), "registered"),
    (ROW.format(id="a", role="fit", extra=""), "role 'fit'"),
    (ROW.format(id="a", role="calibration", extra="").replace("kv_cache_gib", "kv"), "quantity 'kv'"),
    (ROW.format(id="a", role="calibration", extra="") + ROW.format(id="a", role="calibration", extra=""),
     "ids used twice"),
    (ROW.format(id="a", role="calibration", extra="").replace('excerpt = "KV 1.5 GiB"\n', ""), "'excerpt'"),
])
def test_a_row_written_wrong_is_refused_with_what_is_wrong(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(rows.RowError, match=re.escape(message)):
        rows.runs(_write(tmp_path / "references", text))


def test_a_registered_row_reads(tmp_path: Path) -> None:
    extra = 'registered = "2026-12-07"\nmodel_commit = "9a2a99f"'
    found = rows.runs(_write(tmp_path / "references", ROW.format(id="a", role="prediction", extra=extra)))
    assert [(r.id, r.role, r.figure, r.calculator) for r in found] == [("a", "prediction", 1.5, "vram_fit")]
