// Types for tsc (tsconfig.json) of what the page's scripts read from the browser beyond lib.dom (the
// protocol's types are generated: protocol.d.ts). Declarations only: nothing here runs, and the site does
// not ship this file.
export {};

declare global {
  /** A calculator's `[data-calculator]` element (what the page keeps for it is its `WidgetState`, calculators.js). */
  type WidgetElement = HTMLElement;

  /** The Network Information API (Chromium): Save-Data and the connection's type. */
  interface Navigator {
    connection?: { saveData?: boolean; effectiveType?: string };
  }

  /** KaTeX's auto-render, loaded as a deferred script before math.js on a page with formulas. */
  interface Window {
    renderMathInElement?: (element: Element, options: object) => void;
  }

  /** The .wasm a shared link's page started downloading and compiling from <head> (early.js). */
  interface EarlyWasm {
    started: Promise<{ response: Response; compiled?: Promise<WebAssembly.Module> }>;
    abort: () => void;
  }

  /** Set in <head>: the worker it started (kw-worker.html), the .wasm early.js started; adopted by boot.js. */
  var kwWorker: Worker | undefined;
  var kwWasm: EarlyWasm | undefined;

  /** A worker whose script failed to load, with the reason (calculators.js spareWorker). */
  interface Worker {
    kwFailed?: string;
  }
}
