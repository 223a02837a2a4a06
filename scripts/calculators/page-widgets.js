// The page's widgets and what the page keeps for each between answers; reading and writing their form
// and result elements, only where something changed. Imported by every module of the live calculators.

/** @type {WidgetElement[]} every widget of the page */
export const widgets = /** @type {WidgetElement[]} */ ([...document.querySelectorAll("[data-calculator]")]);
// The article's "your workload" block (calculators/workload.py), if the page has one: see follow.js.
export const workload = widgets.find((widget) => widget.dataset.calculator === "workload") ?? null;

/**
 * What the page keeps per widget between answers (never on the element itself).
 * @typedef {object} WidgetState
 * @property {boolean} [own] changed by the reader (or set by a link): it no longer follows the workload block
 * @property {string} [followed] the workload values this widget last followed, as JSON
 * @property {Record<string, string>} [neutral] the workload block's values in the neutral form, once answered
 * @property {Link | null} [pending] a link's values still waiting for an answer
 * @property {string} [shown] the form values of the result on show, as JSON
 * @property {string} [alert] the text last announced by the widget's alert region
 * @property {number} [request] the number of the widget's latest request: only its answer is shown
 * @property {ReturnType<typeof setTimeout>} [staleTimer] marks the result stale if no answer comes soon
 * @property {string} [summary] what the result says instead of a verdict when the input is wrong
 * @property {string} [errors] the field messages on show, as JSON
 * @property {string} [controls] the controls on show, as JSON
 * @property {{fields: (HTMLInputElement | HTMLSelectElement)[], output: Record<string, HTMLElement>,
 *   html: Record<string, HTMLElement>}} [parts] the widget's fields and result elements, looked up once
 */
/** @type {WeakMap<HTMLElement, WidgetState>} */
const states = new WeakMap();

/** @type {WeakMap<Element, string>} the HTML last placed in each `[data-html]` slot */
const placed = new WeakMap();

/** @param {HTMLElement} widget @returns {WidgetState} */
export function stateOf(widget) {
  let found = states.get(widget);
  if (!found) states.set(widget, (found = {}));
  return found;
}

// A widget's fields and the elements its results go into, looked up once: they stay in place, only
// their values and contents change (each lookup walks the widget's tree, on every keystroke).
/** @param {WidgetElement} widget */
export function parts(widget) {
  const kept = stateOf(widget);
  if (!kept.parts) {
    /** @param {string} attribute @returns {Record<string, HTMLElement>} */
    const by = (attribute) => Object.fromEntries([...widget.querySelectorAll(`[${attribute}]`)].map(
      (element) => [element.getAttribute(attribute), /** @type {HTMLElement} */ (element)]));
    const fields = /** @type {(HTMLInputElement | HTMLSelectElement)[]} */ ([...widget.querySelectorAll("form [name]")]);
    kept.parts = { fields, output: by("data-output"), html: by("data-html") };
  }
  return kept.parts;
}

/** @param {WidgetElement} widget @returns {Record<string, string>} the form's text, field by field */
export function formValues(widget) {
  /** @type {Record<string, string>} */
  const values = {};
  for (const field of parts(widget).fields) values[field.name] = field.value;
  return values;
}

// Writes only what changed: fewer DOM mutations, less style and layout work per keystroke.
export function setText(element, text) {
  if (element && element.textContent !== text) element.textContent = text;
}

// Places HTML built and escaped by Python (widgets/markup.py, widgets/svg.py), only where it changed.
export function setHtml(element, html) {
  if (element && placed.get(element) !== html) {
    element.innerHTML = html;
    placed.set(element, html);
  }
}

/** @param {WidgetElement} widget */
export function setField(widget, key, value) {
  const field = /** @type {HTMLInputElement | HTMLSelectElement | null} */ (
    widget.querySelector(`form [name="${CSS.escape(key)}"]`));
  if (field && value !== undefined && field.value !== value) field.value = value;
}
