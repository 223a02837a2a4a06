// Types for tsc (tsconfig.json) of what the page's scripts keep on elements and read from the browser
// beyond lib.dom. Declarations only: nothing here runs, and the site does not ship this file.
export {};

declare global {
  /** A calculator's `[data-calculator]` element and the state calculators.js keeps on it. */
  interface WidgetElement extends HTMLElement {
    /** Changed by the reader (or set by a link): it no longer follows the workload block. */
    kwOwn?: boolean;
    /** The workload values this widget last followed, as JSON. */
    kwFollowed?: string;
    /** The workload block's values in the neutral form, once it has an answer. */
    kwNeutral?: Record<string, string>;
    /** A link's values still waiting for an answer, and the form they are written in. */
    kwPending?: { form: string; values: Record<string, string> } | Record<string, string> | null;
    /** The form values of the result on show, as JSON. */
    kwShown?: string;
  }

  /** The Network Information API (Chromium): Save-Data and the connection's type. */
  interface Navigator {
    connection?: { saveData?: boolean; effectiveType?: string };
  }

  /** KaTeX's auto-render, loaded as a deferred script before math.js on a page with formulas. */
  interface Window {
    renderMathInElement?: (element: Element, options: object) => void;
  }

  /** A worker whose script failed to load, with the reason (calculators.js spareWorker). */
  interface Worker {
    kwFailed?: string;
  }
}
