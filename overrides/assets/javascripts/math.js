// The formulas of a calculator's page, typeset with KaTeX (self-hosted: wiki/katex.py). The page carries them
// as pymdown-extensions' arithmatex writes them with `generic: true`: `<span class="arithmatex">\(...\)</span>`
// and `<div class="arithmatex">\[...\]</div>`. overrides/method.html loads KaTeX and its auto-render as
// deferred scripts before this module, only on a page that has formulas. KaTeX lays its output out with
// element styles set through the DOM, which the page's policy allows (no inline style attributes).
// Without JavaScript, or if KaTeX does not load, the reader sees the formulas' TeX source.

/** The delimiters arithmatex writes: inline and display math. */
const DELIMITERS = [
  { left: "\\(", right: "\\)", display: false },
  { left: "\\[", right: "\\]", display: true },
];

/**
 * Typeset every formula of the page.
 * @param {(element: Element, options: object) => void} render KaTeX's renderMathInElement
 */
function typeset(render) {
  for (const element of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll(".arithmatex"))) {
    render(element, { delimiters: DELIMITERS, throwOnError: false });
    element.dataset.typeset = "";
    // A display formula wider than a phone's column scrolls in its own box: the keyboard must reach it too.
    if (element.scrollWidth > element.clientWidth) element.tabIndex = 0;
  }
}

if (typeof window.renderMathInElement === "function") typeset(window.renderMathInElement);
