// Loaded async from <head> on pages with calculators (an ES module; links.js is preloaded beside it).
// Opened from a link that sets a calculator's values (links.js has the grammar), the page needs the
// live calculator at once: the .wasm, 3.5 of the ~5 MB any boot needs, starts downloading now instead of
// once the page has parsed and run its scripts (bench --network, 10 Mbit/s: ~0.3 s of an idle line).
// calculators.js's own fetch of it then takes this download over. Any other visit fetches nothing here,
// and so does a link that names no widget of this page: the ids of the page's widgets are written
// into this script's `data-widgets` by the build (overrides/main.html), as the body is not parsed yet.
import { readLink } from "./links.js";

const script = /** @type {HTMLScriptElement | null} */ (document.querySelector("script[data-wasm][data-widgets]"));
const ids = new Set((script?.dataset.widgets || "").split(" ").filter(Boolean));
if (script && readLink(location.hash).some(({ id }) => ids.has(id))) {
  const link = document.createElement("link");
  link.rel = "preload";
  link.as = "fetch";
  link.crossOrigin = "anonymous"; // as fetch() asks for it (cors, same-origin credentials): one download
  link.href = script.dataset.wasm;
  document.head.append(link);
}
