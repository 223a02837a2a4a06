// Loaded async from <head> on pages with calculators. Opened from a link that sets a calculator's
// values (calculators.js writes them as "#<widget>/<key>=<value>;..."), the page needs the live
// calculator at once: the .wasm, 3.5 of the ~5 MB any boot needs, starts downloading now instead of
// once the page has parsed and run its scripts (bench --network, 10 Mbit/s: ~0.3 s of an idle line).
// calculators.js's own fetch of it then takes this download over. Any other visit fetches nothing here.
const wasm = document.currentScript?.dataset.wasm;
if (wasm && /^#[\w-]+\/./.test(location.hash)) {
  const link = document.createElement("link");
  link.rel = "preload";
  link.as = "fetch";
  link.crossOrigin = "anonymous"; // as fetch() asks for it (cors, same-origin credentials): one download
  link.href = wasm;
  document.head.append(link);
}
