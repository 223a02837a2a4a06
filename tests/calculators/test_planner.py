"""The planner: the article's order of deployments, and the load each answer holds."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from calculators import assumptions as A
from calculators import planner
from calculators.catalog.gpus import GPU_BY_ID
from calculators.catalog.models import MODEL_BY_ID
from calculators.serving_rate import held_concurrency, served
from calculators.vram_fit import fit

MODELS = sorted(MODEL_BY_ID)
GPUS = sorted(GPU_BY_ID)

loads = st.builds(
    lambda model, gpu, gpus, context, share, concurrency, target, precision, kv: planner.Load(
        MODEL_BY_ID[model], precision, kv, GPU_BY_ID[gpu], gpus, context, max(1, int(context * share)),
        concurrency, target),
    st.sampled_from(MODELS), st.sampled_from(GPUS), st.sampled_from((1, 2, 4, 8)),
    st.integers(256, 65536), st.floats(0.01, 0.5), st.integers(0, 512),
    st.sampled_from((0.0, 100.0, 1500.0, 20000.0)), st.sampled_from(("bf16", "fp8", "int4")),
    st.sampled_from(("bf16", "fp8")),
)


def _step_index(p: planner.Plan) -> int:
    return planner.STEPS.index(p.layout.step)


@settings(max_examples=150, deadline=None)
@given(loads)
def test_the_answer_holds_the_load_and_meets_the_target(load: planner.Plan) -> None:
    p = planner.plan(load)
    layout = p.layout
    assert layout is not None  # within the form's bounds some number of boxes always holds the model
    if load.concurrency:
        assert layout.max_concurrency >= load.concurrency
    if load.target_tokens_per_s:
        assert layout.tokens_per_s * load.utilization_target >= load.target_tokens_per_s * (1 - 1e-9)
    assert layout.nodes >= 1 and layout.copies >= 1
    assert layout.tp * layout.pp * layout.copies <= layout.gpus_per_node * layout.nodes
    assert layout.tp <= layout.gpus_per_node
    heads = load.model.heads or load.model.kv_heads
    assert heads % layout.tp == 0, "tensor parallelism runs on a degree that divides the heads"


@settings(max_examples=150, deadline=None)
@given(loads)
def test_every_earlier_step_says_why_it_failed(load: planner.Plan) -> None:
    p = planner.plan(load)
    tried = [step for step, _ in p.tried]
    assert tried == list(planner.STEPS[:_step_index(p)])
    assert all(reason in planner.REASONS for _, reason in p.tried)


@settings(max_examples=150, deadline=None)
@given(loads)
def test_a_model_goes_across_boxes_only_when_its_weights_fit_no_box(load: planner.Plan) -> None:
    p = planner.plan(load)
    top = max(load.gpus, planner.BOX_SIZES[-1])
    weights_fit_a_box = any(planner.copy_of(load, tp).holds
                            for tp in planner.tp_degrees(load.model, top))
    assert p.across_boxes == (not weights_fit_a_box)


@settings(max_examples=100, deadline=None)
@given(loads, st.floats(1.5, 10.0))
def test_a_bigger_target_never_takes_fewer_boxes(load: planner.Plan, factor: float) -> None:
    if not load.target_tokens_per_s:
        return
    more = planner.Load(load.model, load.precision, load.kv_precision, load.gpu, load.gpus, load.context,
                        load.output_tokens, load.concurrency, load.target_tokens_per_s * factor)
    assert planner.plan(more).nodes >= planner.plan(load).nodes


def test_scale_up_before_scale_out() -> None:
    """70B FP8 on one RTX 5090, one request of 4k: a box of 4 of the same card, not a cluster."""
    load = planner.Load(MODEL_BY_ID["llama-3.1-70b"], "fp8", "bf16", GPU_BY_ID["rtx-5090"], 1, 4096, 500, 1, 0.0)
    p = planner.plan(load)
    assert (p.layout.step, p.nodes, p.across_boxes) == ("bigger_box", 1, False)
    weights = MODEL_BY_ID["llama-3.1-70b"].params_b * A.WEIGHT_BYTES["fp8"]
    assert weights <= A.DEFAULT_WEIGHTS_LIMIT * p.layout.gpus_per_node * GPU_BY_ID["rtx-5090"].memory_gb
    smaller = planner.BOX_SIZES[planner.BOX_SIZES.index(p.layout.gpus_per_node) - 1]
    assert weights > A.DEFAULT_WEIGHTS_LIMIT * smaller * GPU_BY_ID["rtx-5090"].memory_gb


def test_copies_inside_a_box_before_a_second_box() -> None:
    """A small model under a heavy load fills one box with copies rather than TP over all of it."""
    load = planner.Load(MODEL_BY_ID["mistral-7b"], "fp8", "bf16", GPU_BY_ID["rtx-pro-6000"], 8, 4096, 500, 256, 0.0)
    p = planner.plan(load)
    assert p.nodes == 1 and p.layout.tp < 8


def test_an_fp8_kv_cache_holds_what_a_bf16_one_cannot() -> None:
    """405B FP8 on 8 x RTX Pro 6000, 32 x 32k: two boxes of copies with a BF16 cache, one box with FP8."""
    def plan(kv: str) -> planner.Plan:
        return planner.plan(planner.Load(MODEL_BY_ID["llama-3.1-405b"], "fp8", kv, GPU_BY_ID["rtx-pro-6000"], 8,
                                         32768, 500, 32, 0.0))
    bf16, fp8 = plan("bf16"), plan("fp8")
    assert (bf16.layout.step, bf16.nodes) == ("box_replicas", 2)
    assert (fp8.nodes, fp8.across_boxes) == (1, False)


def test_bf16_405b_goes_across_boxes_with_tp_inside_and_pp_across() -> None:
    load = planner.Load(MODEL_BY_ID["llama-3.1-405b"], "bf16", "bf16", GPU_BY_ID["rtx-pro-6000"], 8, 8192, 500, 1,
                        0.0)
    p = planner.plan(load)
    assert p.layout.step == "across_boxes"
    assert p.layout.tp == 8 and p.layout.pp == p.nodes >= 2


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(MODELS), st.sampled_from(GPUS), st.sampled_from((1, 2, 4, 8)), st.integers(512, 32768))
def test_held_concurrency_is_the_most_within_the_latency_bound(model: str, gpu: str, gpus: int, context: int) -> None:
    m, g = MODEL_BY_ID[model], GPU_BY_ID[gpu]
    out = min(500, context // 2)
    f = fit(m, "fp8", "bf16", g, gpus, context, 1, 1.0)
    held = held_concurrency(m, g, gpus, "fp8", "bf16", context - out, out, f["max_concurrency"])
    assert held <= min(f["max_concurrency"], A.MAX_BATCH)
    if held > 1:
        assert served(m, g, gpus, "fp8", "bf16", held, context - out, out)["itl"] * 1e3 <= A.MAX_ITL_MS
    if 1 <= held < min(f["max_concurrency"], A.MAX_BATCH):
        assert served(m, g, gpus, "fp8", "bf16", held + 1, context - out, out)["itl"] * 1e3 > A.MAX_ITL_MS


def test_served_counts_prefill() -> None:
    """Over whole requests the rate is below the decode-only rate, and equal to it with no prompt to read."""
    m, g = MODEL_BY_ID["llama-3.1-70b"], GPU_BY_ID["h100-sxm"]
    long_prompt = served(m, g, 2, "fp8", "fp8", 64, 8192, 1024)
    assert long_prompt["rate"] < long_prompt["decode_rate"]
    assert long_prompt["itl"] > long_prompt["step"]
