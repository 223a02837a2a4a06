"""The live calculators' protocol, in one place: the view and the page<->worker messages (types only).

The types below are the one description of the data that crosses between Python and JavaScript:
`overrides/assets/javascripts/calculators.js` (the page) and `calculator-worker.js` (the worker)
point here rather than describing it again. `tests/widgets/test_protocol.py` holds `widgets.view.view`
to `View` / `ViewFailure` and the runtime's page config to `RuntimeConfig`.

Messages, page -> worker:
  `Boot` once, then `Wasm` (the compiled module, or why it did not compile), then `ViewRequest`s.
Worker -> page:
  `Step` and `Progress` while it boots (the page gives up only when they stop), then `Ready` or
  `BootError`; `Line` whenever bytes that crossed the reader's line judged it (the page remembers it
  for the next pages, `Boot.line`); `Kept` once the snapshot is in the HTTP cache, or `KeepFailed`;
  one `ViewReply` per `ViewRequest`: its `view` is the view, or null with `error` when the Python call
  itself failed (the page then marks the result stale).

The worker's Python that answers these messages is `widgets/worker.py`; this module depends on nothing
of the project, so that the view and the worker can both use its types.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

# ---- The view: what `widgets.view.view(name, inputs, lang)` returns --------------------------------


class TraceRow(TypedDict):
    """One step of the decision flow: its number, the question (with the reader's numbers), the answer."""

    step: str
    question: str
    answer: str


class ViewHtml(TypedDict):
    """Pieces of the widget as HTML built and escaped in Python (`widgets/markup.py`, `widgets/svg.py`);
    the page places each in the element `[data-html=<key>]` as it is."""

    badge: str
    notes: str
    trace: str
    figure: str  # SVG or a table, or ""


class Controls(TypedDict):
    """The fields (`disabled`) and the choices of a field (`unavailable`) that make no sense for these inputs."""

    disabled: list[str]
    unavailable: dict[str, list[str]]


class View(TypedDict):
    """A result: every text a widget shows, localized. `outputs` follows the spec's `shown` order; each
    text goes into `[data-output=<key>]`."""

    calculator: str
    lang: str
    ok: Literal[True]
    inputs: dict[str, str]  # the normalized inputs as a form shows them
    outputs: dict[str, str]
    verdict: str | None
    verdict_text: str
    explanation: str
    notes: list[str]
    trace: list[TraceRow]
    html: ViewHtml
    neutral: dict[str, str]  # the normalized inputs, locale-neutral, for links (`0.7`, `32768`, choice ids)
    controls: Controls
    errors: dict[str, str]  # empty
    notices: list[str]  # what the widget says about a link's values it could not take (`widgets/links.py`)


class ViewFailure(TypedDict):
    """Input that cannot be computed: the catalog's message per field ("" for the whole widget)."""

    calculator: str
    lang: str
    ok: Literal[False]
    errors: dict[str, str]
    summary: str  # what the result says instead of a verdict: the field to check, or the whole error
    first_error: str  # the first field in error in the form's order ("" for the whole widget)
    controls: Controls  # as for a result: every field that can be edited stays enabled (no dead end)
    inputs: dict[str, str]  # the link's values as this page writes them (`32,768` for a link's `32.768`)
    notices: list[str]


# ---- The page's runtime config: the JSON of `<script id="kw-runtime">` (`wiki/runtime.py`) ---------


class RuntimeFiles(TypedDict):
    """The runtime's files, as URLs, and what the worker loads of them."""

    pyodide: str
    loader: str
    asm: str
    lock: str
    snapshot: str
    stdlib: str  # the standard library of a plain boot: what Pyodide's start-up imports...
    stdlib_later: str  # ...and what our code imports besides, on sys.path once Python is up
    wheels: list[str]
    packages: list[str]  # the names in pyodide-lock.json the worker loads


class RuntimeConfig(RuntimeFiles):
    """URLs relative to the site root (the page resolves them against `data-root`), and sizes; the page
    itself compiles the .wasm (`wasm`, `wasm_bytes`)."""

    wasm_bytes: int
    wasm: str


# ---- Messages, page -> worker ---------------------------------------------------------------------


# Whether the reader's line is fast enough for the snapshot, judged on bytes that crossed it: `rate` in
# encoded bytes per ms, `from` the download that judged it ("javascript": Pyodide's asm.js, or "snapshot").
LineJudgement = TypedDict("LineJudgement", {"fast": bool, "rate": int, "from": str})


class RememberedLine(LineJudgement):
    """A `LineJudgement` an earlier page of this origin remembered (localStorage), with its age."""

    age: int  # ms


class Boot(RuntimeFiles):
    """`RuntimeConfig`'s files with absolute URLs, whether the reader asked to save data, the remembered
    judgement of the line (or null) and how long the snapshot's download may stall."""

    type: Literal["boot"]
    frugal: bool
    line: RememberedLine | None
    snapshotStallMs: int  # noqa: N815 (a JavaScript name)


class Prepare(RuntimeFiles):
    """Sent by a shared link's page from <head> (early.js), before the page script's `Boot`: the worker takes
    the steps of a boot from a snapshot an earlier page made (looked up, Pyodide's JavaScript imported), none
    of which crosses the line; the `Boot` that follows, with the same files, goes on from them."""

    type: Literal["prepare"]


class Wasm(TypedDict):
    type: Literal["wasm"]
    module: NotRequired[object]  # a WebAssembly.Module
    error: NotRequired[str]


class WasmTail(TypedDict):
    """The page's download of the .wasm is in its last part (`WASM_TAIL` of scripts/calculators/boot.js):
    a plain boot asks for its standard library now, so that the line does not wait between the two."""

    type: Literal["wasm-tail"]


class Link(TypedDict):
    """A shared link's values for one widget, in the form the link records (`widgets/links.py`)."""

    form: str  # "neutral" (`widgets.numbers.NEUTRAL`: what the page writes), or the language of typed text
    values: dict[str, str]


class ViewRequest(TypedDict):
    type: Literal["view"]
    id: int
    name: str
    inputs: dict[str, str | int | float | bool]  # typed text from a form, or build-time presets
    lang: str
    link: NotRequired[Link]  # a link's values, laid over `inputs`


# ---- Messages, worker -> page ---------------------------------------------------------------------


class Step(TypedDict):
    type: Literal["step"]


class Progress(TypedDict):
    type: Literal["progress"]
    loaded: int
    total: int


class Ready(TypedDict):
    type: Literal["ready"]
    via: Literal["snapshot", "plain"]
    # chooseBoot's reason, or "fallback": the chosen snapshot failed and the boot went plain
    reason: Literal["held", "made", "cached", "frugal", "remembered", "measured", "unknown", "fallback"]
    snapshotError: NotRequired[str]  # noqa: N815 (why a snapshot boot went plain)


class Line(LineJudgement):
    type: Literal["line"]


class BootError(TypedDict):
    type: Literal["boot-error"]
    message: str


class Kept(TypedDict):
    """The next page and visit have a snapshot: the build's this boot held, one made from this boot's
    interpreter, or the build's downloaded because making one failed (`madeError`: why)."""

    type: Literal["kept"]
    snapshot: Literal["held", "made", "downloaded"]
    madeError: NotRequired[str]  # noqa: N815 (a JavaScript name)


class KeepFailed(TypedDict):
    """The snapshot could not be kept: the page works on, its next page boots plain from the cache."""

    type: Literal["keep-failed"]
    message: str


class ViewReply(TypedDict):
    type: Literal["view"]
    id: int
    view: View | ViewFailure | None
    error: NotRequired[str]  # only with view null: the Python call raised; this widget says so, the others go on
    reason: NotRequired[Literal["files", "python"]]  # only with view null: what failed (restoring files, or the call)


# ---- What each side receives ----------------------------------------------------------------------

PageMessage = Prepare | Boot | Wasm | WasmTail | ViewRequest  # page -> worker
WorkerMessage = Step | Progress | Ready | Line | BootError | Kept | KeepFailed | ViewReply  # worker -> page
