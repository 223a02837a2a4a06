// Offline reading and warm later visits: registers the site's service worker (sw.js at the site root,
// written by the build: wiki/offline.py, wiki/sw.js) once the page is quiet, and asks it to keep the
// calculators' runtime once a boot is done; both wait for a pause in the reader's typing.
// <html data-kw-offline> says how far it got: "pages" (both languages read offline), "runtime" (the
// live calculators work offline too).

const root = new URL("../../", import.meta.url); // this file is assets/javascripts/offline.js
const html = document.documentElement;
const booting = () => document.querySelector('[data-calculator][data-state="loading"]') !== null;

// Resolves once the page has loaded, the browser is idle and no boot is downloading: the worker's
// install (the pages and assets of both languages) never competes with a reader's first result.
function quiet() {
  return new Promise((resolve) => {
    const idle = window.requestIdleCallback || ((callback) => setTimeout(callback, 200));
    const check = () => idle(() => {
      if (!booting()) resolve();
      else new MutationObserver((_, observer) => {
        if (booting()) return;
        observer.disconnect();
        check();
      }).observe(document.body, { attributes: true, attributeFilter: ["data-state"], subtree: true });
    });
    if (document.readyState === "complete") check();
    else addEventListener("load", check, { once: true });
  });
}

// Resolves once the reader has not typed for PAUSE_MS, counted from the call at the earliest: the
// worker's install (the shell over the network) and keeping the runtime (the snapshot decompressed,
// ~0.1 s of a core) are not to compete with the results of their typing.
const PAUSE_MS = 2000;
let lastInput = 0;
document.addEventListener("input", () => { lastInput = performance.now(); }, { capture: true, passive: true });

function typingPause() {
  const asked = performance.now();
  return new Promise((resolve) => {
    const check = () => {
      const left = Math.max(lastInput, asked) + PAUSE_MS - performance.now();
      if (left <= 0) resolve();
      else setTimeout(check, left);
    };
    check();
  });
}

// Ask the active worker to copy what the boot fetched (still in the HTTP cache) into its cache.
async function keep(worker) {
  await typingPause();
  const channel = new MessageChannel();
  channel.port1.onmessage = ({ data }) => {
    if (data.offline) html.dataset.kwOffline = "runtime";
  };
  worker.postMessage({ type: "keep" }, [channel.port2]);
}

// Calls `then` once, as soon as `done()` holds (now, or after a change of `attribute` under `target`).
function once(target, attribute, done, then) {
  if (done()) return then();
  new MutationObserver((_, observer) => {
    if (!done()) return;
    observer.disconnect();
    then();
  }).observe(target, { attributes: true, attributeFilter: [attribute], subtree: true });
}

async function start() {
  await quiet();
  await typingPause();
  await navigator.serviceWorker.register(new URL("sw.js", root), { updateViaCache: "none" });
  const { active } = await navigator.serviceWorker.ready;
  if (html.dataset.kwOffline !== "runtime") html.dataset.kwOffline = "pages";
  // Once a first result is there (what the boot fetched), and again once the snapshot is kept (a plain
  // boot fetches it for the next visit after its first result).
  once(document.body, "data-state", () => document.querySelector('[data-calculator][data-state="ready"]'),
    () => keep(active));
  once(html, "data-kw-runtime", () => html.dataset.kwRuntime === "kept", () => keep(active));
}

if ("serviceWorker" in navigator) start().catch(() => {}); // no service worker: the site works as before
