"""planner: the article's order of deployments, and the one answer every recommendation reads.

"Scale up before you scale out": for a serving load (a model at a precision, requests of ``context``
tokens, ``concurrency`` of them at once and/or an output-token target), the planner walks the
deployments in the article's order and returns the first that holds the load and meets the target,
with why each earlier step failed:

1. ``one_gpu``: one GPU;
2. ``one_box``: one copy of the model over more GPUs of the reader's box, tensor parallel on a degree
   that divides the attention heads (``vram_fit.tp_degrees``), at most the box's GPUs;
3. ``replicas_in_box``: several copies inside the reader's box (box GPUs / TP of them), the load
   split between them;
4. ``bigger_box``: the same, in a bigger box of the same GPU (2, 4 or 8 GPUs, the article's
   8-GPU ceiling);
5. ``box_replicas``: data-parallel copies of whole boxes (no fabric between them: a load balancer);
6. ``across_boxes``: only when the weights do not fit the biggest box: one copy across boxes,
   tensor parallel inside each box and pipeline parallel across them (the layout vLLM and
   TensorRT-LLM document for multi-node serving), and copies of that for the load.

A copy of the model "holds" when its weights are within the article's rule (``weights_limit``, 70 %
of the GPUs' memory) and its KV cache holds at least one request of ``context`` tokens (vram_fit).
It serves as many requests at once as its KV cache holds, at most vLLM's default batch and as many
as keep the time between two tokens within MLPerf's server bound (``serving_rate.held_concurrency``);
its rate is ``serving_rate.served`` at that load, output tokens over whole requests, prefill included.
A load is met when the copies' KV caches hold ``concurrency`` requests and their rate, planned at the
utilisation target, reaches ``target_tokens_per_s`` (0: no target; concurrency 0: no requirement).
"""

from dataclasses import dataclass, field, replace
from typing import Any

from . import assumptions as A
from .catalog.fabrics import FABRIC_BY_ID, Fabric
from .catalog.gpus import Gpu
from .catalog.models import Model
from .common import ceil_div
from .serving_rate import held_concurrency, served
from .vram_fit import fit, tp_degrees

STEPS = ("one_gpu", "one_box", "replicas_in_box", "bigger_box", "box_replicas", "across_boxes")
# Why a step did not answer.
REASONS = ("weights_do_not_fit", "load_does_not_fit", "below_target", "not_bigger")
BOX_SIZES = (1, 2, 4, 8)  # GPUs a box of one card is built with, up to the article's 8-GPU ceiling
MAX_STAGES = 64  # boxes one copy may span (pipeline stages); more than any model the form allows needs
ACROSS_FABRIC = "ib-400"  # the fabric a model across boxes is projected on (the article's InfiniBand tier)


class NoDeployment(ValueError):
    """No number of boxes of this GPU holds the model (its weights exceed the most pipeline stages its
    layers allow): ``run`` answers the input error ``fits_no_deployment`` on ``model``."""


@dataclass(frozen=True)
class Load:
    """What the reader serves, on which card: the planner's whole input."""

    model: Model
    precision: str
    kv_precision: str
    gpu: Gpu
    gpus: int                      # GPUs in the reader's box
    context: int                   # tokens one request reaches (prompt + answer)
    output_tokens: int             # of which the answer
    concurrency: int               # requests at once (0: no requirement)
    target_tokens_per_s: float     # output tokens/s (0: no target)
    utilization_target: float = A.DEFAULT_UTILIZATION_TARGET
    weights_limit: float = A.DEFAULT_WEIGHTS_LIMIT

    @property
    def input_tokens(self) -> int:
        """The prompt: what the request's context holds before its answer."""
        return max(1, self.context - self.output_tokens)


@dataclass(frozen=True)
class Copy:
    """One copy of the model (a replica) over ``tp`` x ``pp`` GPUs, and what it serves."""

    tp: int
    pp: int
    holds: bool           # weights within the rule and one request's KV cache fits
    max_concurrency: int  # requests of `context` tokens its KV cache holds
    held: int             # requests it serves at once (latency bound, engine batch)
    tokens_per_s: float   # output tokens/s at `held`
    itl_ms: float         # time between two tokens of a request at `held`


@dataclass(frozen=True)
class Layout:
    """A deployment: ``nodes`` boxes of ``gpus_per_node`` GPUs, copies of TP x PP GPUs."""

    step: str
    gpus_per_node: int
    tp: int
    pp: int
    copies: int            # copies of the model in all (one per `pp` boxes, or several per box)
    nodes: int
    max_concurrency: int   # requests all copies hold together
    tokens_per_s: float    # output tokens/s all copies serve together (at their held loads)
    held: int              # requests all copies serve at once within the latency bound


@dataclass(frozen=True)
class Plan:
    """The first deployment that holds the load and meets the target, and why the earlier ones failed."""

    load: Load
    layout: Layout | None            # None only in a Plan made by hand: plan() raises NoDeployment
    tried: tuple[tuple[str, str], ...] = field(default=())   # (step, reason) of each failed step

    @property
    def nodes(self) -> int:
        """Boxes the answer takes (0 when nothing holds the model)."""
        return self.layout.nodes if self.layout else 0

    @property
    def across_boxes(self) -> bool:
        """True when one copy of the model spans boxes (a fabric between them is needed)."""
        return bool(self.layout and self.layout.pp > 1)

    @property
    def per_request_tokens_per_s(self) -> float:
        """How fast one request streams at the planned load (output tokens/s)."""
        if not self.layout or not self.layout.held:
            return 0.0
        return self.layout.tokens_per_s / self.layout.held

    def to_dict(self) -> dict[str, Any]:
        """The plan as plain data (for traces and tests)."""
        layout = None
        if self.layout:
            layout = {k: getattr(self.layout, k) for k in Layout.__dataclass_fields__}
        return {"layout": layout, "tried": [list(t) for t in self.tried]}


def copy_of(load: Load, tp: int, pp: int = 1, fabric: Fabric | None = None) -> Copy:
    """One copy of the model over ``tp`` GPUs in a box and ``pp`` boxes: does it hold, what it serves."""
    gpus = tp * pp
    f = fit(load.model, load.precision, load.kv_precision, load.gpu, gpus, load.context, 1, load.weights_limit)
    holds = f["within"] and f["max_concurrency"] >= 1
    if not holds:
        return Copy(tp, pp, False, f["max_concurrency"], 0, 0.0, 0.0)
    nodes, inter = (pp, fabric or FABRIC_BY_ID[ACROSS_FABRIC]) if pp > 1 else (1, None)
    held = held_concurrency(load.model, load.gpu, gpus, load.precision, load.kv_precision, load.input_tokens,
                            load.output_tokens, f["max_concurrency"], nodes=nodes, inter=inter)
    s = served(load.model, load.gpu, gpus, load.precision, load.kv_precision, held, load.input_tokens,
               load.output_tokens, nodes=nodes, inter=inter)
    return Copy(tp, pp, True, f["max_concurrency"], held, s["rate"], s["itl"] * 1e3)


def fills(load: Load, size: int, copies: dict[int, Copy] | None = None) -> list[Layout]:
    """Every way to fill one box of ``size`` GPUs with copies of one TP degree that hold the model."""
    out = []
    for tp in tp_degrees(load.model, size):
        c = copies.setdefault(tp, copy_of(load, tp)) if copies is not None else copy_of(load, tp)
        if c.holds:
            n = size // tp
            out.append(Layout("", size, tp, 1, n, 1, n * c.max_concurrency, n * c.tokens_per_s, n * c.held))
    return out


def _fastest(layouts: list[Layout]) -> Layout:
    """The layout serving the most tokens/s; on a tie the first (the fewer GPUs per copy)."""
    best = layouts[0]
    for layout in layouts[1:]:
        if layout.tokens_per_s > best.tokens_per_s * (1 + 1e-9):
            best = layout
    return best


def box_layout(load: Load, size: int, copies: dict[int, Copy] | None = None) -> Layout | None:
    """How one box of ``size`` GPUs serves the load (None when no copy fits in it): of the fills that
    hold its ``concurrency`` (all, when it asks none) the fastest; when none holds it, the fill that
    holds the most requests."""
    options = fills(load, size, copies)
    if not options:
        return None
    holding = [f for f in options if f.max_concurrency >= load.concurrency]
    return _fastest(holding) if holding else max(options, key=lambda f: f.max_concurrency)


def _meeting(load: Load, size: int, copies: dict[int, Copy]) -> Layout | None:
    """The fastest fill of a box of ``size`` GPUs that meets the whole load, or None."""
    meeting = [f for f in fills(load, size, copies) if _short(load, f) is None]
    return _fastest(meeting) if meeting else None


def _single(load: Load, size: int, copies: dict[int, Copy]) -> Layout | None:
    """The smallest single copy (one TP degree) in a box of ``size`` GPUs that meets the load."""
    for tp in tp_degrees(load.model, size):
        c = copies.setdefault(tp, copy_of(load, tp))
        if c.holds:
            layout = Layout("", size, tp, 1, 1, 1, c.max_concurrency, c.tokens_per_s, c.held)
            if _short(load, layout) is None:
                return layout
    return None


def _short(load: Load, layout: Layout) -> str | None:
    """Why ``layout`` does not meet the load (a REASONS key), or None when it does."""
    if load.concurrency and layout.max_concurrency < load.concurrency:
        return "load_does_not_fit"
    if load.target_tokens_per_s and layout.tokens_per_s * load.utilization_target < load.target_tokens_per_s:
        return "below_target"
    return None


def _scaled(load: Load, unit: Layout, step: str, boxes_per_unit: int) -> Layout:
    """Enough copies of ``unit`` (one box, or one copy across boxes) for the load, at least one."""
    need = 1
    if load.concurrency:
        need = max(need, ceil_div(load.concurrency, unit.max_concurrency))
    if load.target_tokens_per_s:
        need = max(need, ceil_div(load.target_tokens_per_s, unit.tokens_per_s * load.utilization_target))
    return Layout(step, unit.gpus_per_node, unit.tp, unit.pp, unit.copies * need, boxes_per_unit * need,
                  unit.max_concurrency * need, unit.tokens_per_s * need, unit.held * need)


def plan(load: Load) -> Plan:
    """Walk the article's deployments in order; the first that holds the load and meets the target."""
    tried: list[tuple[str, str]] = []
    copies: dict[int, Copy] = {}

    def fail(step: str, reason: str) -> None:
        tried.append((step, reason))

    def answer(layout: Layout, step: str) -> Plan:
        return Plan(load, replace(layout, step=step), tuple(tried))

    one = copies.setdefault(1, copy_of(load, 1))
    if not one.holds:
        fail("one_gpu", "weights_do_not_fit")
    else:
        layout = Layout("", 1, 1, 1, 1, 1, one.max_concurrency, one.tokens_per_s, one.held)
        reason = _short(load, layout)
        if reason is None:
            return answer(layout, "one_gpu")
        fail("one_gpu", reason)

    box = load.gpus
    single = _single(load, box, copies) if box > 1 else None
    if single:
        return answer(single, "one_box")
    largest = _largest_single(load, box, copies)
    fail("one_box", "weights_do_not_fit" if largest is None else (_short(load, largest) or "below_target"))
    several = [f for f in fills(load, box, copies) if f.copies > 1]
    if several:
        met = [f for f in several if _short(load, f) is None]
        if met:
            return answer(_fastest(met), "replicas_in_box")
        fail("replicas_in_box", _short(load, box_layout(load, box, copies)) or "below_target")
    else:
        fail("replicas_in_box", "weights_do_not_fit" if largest is None else "load_does_not_fit")

    bigger = [size for size in BOX_SIZES if size > box]
    for size in bigger:
        layout = _meeting(load, size, copies)
        if layout:
            return answer(layout, "bigger_box")
    top = max(box, BOX_SIZES[-1])
    options = fills(load, top, copies)
    if bigger:
        fail("bigger_box", "weights_do_not_fit" if not options else
             (_short(load, box_layout(load, top, copies)) or "load_does_not_fit"))
    else:
        fail("bigger_box", "not_bigger")

    if options:
        # Copies of whole boxes: the fill that needs the fewest boxes, then the fastest of those.
        scaled = [_scaled(load, f, "box_replicas", 1) for f in options]
        fewest = min(layout.nodes for layout in scaled)
        best = _fastest([layout for layout in scaled if layout.nodes == fewest])
        return answer(best, "box_replicas")
    fail("box_replicas", "weights_do_not_fit")

    tp = max(tp_degrees(load.model, top))
    for pp in range(2, min(MAX_STAGES, load.model.layers) + 1):
        c = copy_of(load, tp, pp)
        if c.holds:
            unit = Layout("", top, tp, pp, 1, pp, c.max_concurrency, c.tokens_per_s, c.held)
            return answer(_scaled(load, unit, "across_boxes", pp), "across_boxes")
    raise NoDeployment(load.model.id)


def _largest_single(load: Load, size: int, copies: dict[int, Copy]) -> Layout | None:
    """One copy over the most GPUs of a box of ``size`` (the most it can hold), or None when it does not hold."""
    tp = max(tp_degrees(load.model, size))
    c = copies.setdefault(tp, copy_of(load, tp))
    return Layout("", size, tp, 1, 1, 1, c.max_concurrency, c.tokens_per_s, c.held) if c.holds else None


def needed_concurrency(load: Load, itl_ms: float) -> int:
    """Requests that must run at once for the target, when each streams one token every ``itl_ms``."""
    if not load.target_tokens_per_s or itl_ms <= 0:
        return 0
    return ceil_div(load.target_tokens_per_s * itl_ms / 1e3, 1.0)
