// Generated from widgets/protocol.py by `python3 build.py types` (wiki/protocol_types.py): do not edit.
// The data that crosses between the page, its worker and Python; ambient, for tsc only (not shipped).
export {};

declare global {
  /**
   * One step of the decision flow: its number, the question (with the reader's numbers), the answer.
   */
  interface TraceRow {
    step: string;
    question: string;
    answer: string;
  }

  /**
   * Pieces of the widget as HTML built and escaped in Python (`widgets/markup.py`, `widgets/svg.py`);
   * the page places each in the element `[data-html=<key>]` as it is.
   */
  interface ViewHtml {
    badge: string;
    notes: string;
    trace: string;
    figure: string;
  }

  /**
   * The fields (`disabled`) and the choices of a field (`unavailable`) that make no sense for these inputs.
   */
  interface Controls {
    disabled: string[];
    unavailable: Record<string, string[]>;
  }

  /**
   * A result: every text a widget shows, localized. `outputs` follows the spec's `shown` order; each
   * text goes into `[data-output=<key>]`.
   */
  interface View {
    calculator: string;
    lang: string;
    ok: true;
    inputs: Record<string, string>;
    outputs: Record<string, string>;
    verdict: string | null;
    verdict_text: string;
    explanation: string;
    notes: string[];
    trace: TraceRow[];
    html: ViewHtml;
    neutral: Record<string, string>;
    controls: Controls;
    errors: Record<string, string>;
    notices: string[];
  }

  /**
   * Input that cannot be computed: the catalog's message per field ("" for the whole widget).
   */
  interface ViewFailure {
    calculator: string;
    lang: string;
    ok: false;
    errors: Record<string, string>;
    summary: string;
    first_error: string;
    controls: Controls;
    inputs: Record<string, string>;
    notices: string[];
  }

  /**
   * The runtime's files, as URLs, and what the worker loads of them.
   */
  interface RuntimeFiles {
    pyodide: string;
    loader: string;
    asm: string;
    lock: string;
    snapshot: string;
    stdlib: string;
    stdlib_later: string;
    wheels: string[];
    packages: string[];
  }

  /**
   * URLs relative to the site root (the page resolves them against `data-root`), and sizes; the page
   * itself compiles the .wasm (`wasm`, `wasm_bytes`).
   */
  interface RuntimeConfig extends RuntimeFiles {
    wasm_bytes: number;
    wasm: string;
  }

  interface LineJudgement {
    fast: boolean;
    rate: number;
    from: string;
  }

  /**
   * A `LineJudgement` an earlier page of this origin remembered (localStorage), with its age.
   */
  interface RememberedLine extends LineJudgement {
    age: number;
  }

  /**
   * `RuntimeConfig`'s files with absolute URLs, whether the reader asked to save data, the remembered
   * judgement of the line (or null) and how long the snapshot's download may stall.
   */
  interface Boot extends RuntimeFiles {
    type: "boot";
    frugal: boolean;
    line: RememberedLine | null;
    snapshotStallMs: number;
  }

  /**
   * Sent by a shared link's page from <head> (early.js), before the page script's `Boot`: the worker takes
   * the steps of a boot from a snapshot an earlier page made (looked up, Pyodide's JavaScript imported), none
   * of which crosses the line; the `Boot` that follows, with the same files, goes on from them.
   */
  interface Prepare extends RuntimeFiles {
    type: "prepare";
  }

  interface Wasm {
    type: "wasm";
    module?: unknown;
    error?: string;
  }

  /**
   * The page's download of the .wasm is in its last part (`WASM_TAIL` of scripts/calculators/boot.js):
   * a plain boot asks for its standard library now, so that the line does not wait between the two.
   */
  interface WasmTail {
    type: "wasm-tail";
  }

  /**
   * A shared link's values for one widget, in the form the link records (`widgets/links.py`).
   */
  interface Link {
    form: string;
    values: Record<string, string>;
  }

  interface ViewRequest {
    type: "view";
    id: number;
    name: string;
    inputs: Record<string, string | number | boolean>;
    lang: string;
    link?: Link;
  }

  interface Step {
    type: "step";
  }

  interface Progress {
    type: "progress";
    loaded: number;
    total: number;
  }

  interface Ready {
    type: "ready";
    via: "snapshot" | "plain";
    reason: "held" | "made" | "cached" | "frugal" | "remembered" | "measured" | "unknown" | "fallback";
    snapshotError?: string;
  }

  interface Line extends LineJudgement {
    type: "line";
  }

  interface BootError {
    type: "boot-error";
    message: string;
  }

  /**
   * The next page and visit have a snapshot: the build's this boot held, one made from this boot's
   * interpreter, or the build's downloaded because making one failed (`madeError`: why).
   */
  interface Kept {
    type: "kept";
    snapshot: "held" | "made" | "downloaded";
    madeError?: string;
  }

  /**
   * The snapshot could not be kept: the page works on, its next page boots plain from the cache.
   */
  interface KeepFailed {
    type: "keep-failed";
    message: string;
  }

  interface ViewReply {
    type: "view";
    id: number;
    view: View | ViewFailure | null;
    error?: string;
    reason?: "files" | "python";
  }

  type PageMessage = Prepare | Boot | Wasm | WasmTail | ViewRequest;

  type WorkerMessage = Step | Progress | Ready | Line | BootError | Kept | KeepFailed | ViewReply;
}
