// Offline reading and warm later visits: registers the site's service worker (sw.js at the site root,
// written by the build: wiki/offline.py, wiki/sw.js) once the page is quiet, and asks it to keep the
// calculators' runtime once a boot is done; both wait for a pause in the reader's typing.
// <html data-kw-offline> says how far it got: "pages" (both languages read offline), "runtime" (the
// live calculators work offline too), "retrying" (the install failed: tried again later, with a
// growing delay, and said on the page; the reason is on data-kw-offline-error).

const root = new URL("../../", import.meta.url); // this file is assets/javascripts/offline.js
const html = document.documentElement;
const booting = () => document.querySelector('[data-calculator][data-state="loading"]') !== null;
// A failed install is tried again after these delays (ms), the last one repeated. Remembered per site (its
// scope) across pages, so that a page view does not download the shell again before its time. A test may
// set shorter ones (`globalThis.kwLimits.installRetry`, as calculators.js's LIMITS).
const RETRY_MS = globalThis.kwLimits?.installRetry ?? [30e3, 2 * 60e3, 10 * 60e3, 60 * 60e3];
const RETRY_KEY = `kw-offline-retry:${root.pathname}`;

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
// ~0.1 s of a core) are not to compete with the results of their typing. A test may set a longer one
// (`globalThis.kwLimits.typingPause`), so that a busy machine's slowness is not taken for a pause.
const PAUSE_MS = globalThis.kwLimits?.typingPause ?? 2000;
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
    else if (data.error) html.dataset.kwOfflineError = data.error; // the pages still read offline
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

/** The failed installs remembered for this site: `{failures, next, error}` (next: when to try again, epoch ms). */
function retries() {
  try {
    const stored = JSON.parse(localStorage.getItem(RETRY_KEY) || "null");
    return stored && Number.isFinite(stored.next) ? stored : { failures: 0, next: 0 };
  } catch {
    return { failures: 0, next: 0 }; // storage refused: every page may try (the install fetches only what is missing)
  }
}

function remember(state) {
  try {
    if (state) localStorage.setItem(RETRY_KEY, JSON.stringify(state));
    else localStorage.removeItem(RETRY_KEY);
  } catch {
    // Storage refused: the delay holds for this page only (the timer below); nothing else depends on it.
  }
}

// Service workers that this browser will not run here (a setting, a private window, an automation that
// blocks them): no retry, the site works online as before.
const UNAVAILABLE = "unavailable";

/**
 * Register sw.js; resolves with its registration once a worker is active, rejects when its install
 * fails (a file that did not download: the new worker ends "redundant"), or with `reason` UNAVAILABLE.
 */
let installError = null; // why the last install failed, as the service worker said (sw.js "install-failed")

async function install() {
  installError = null;
  let registration;
  try {
    registration = await navigator.serviceWorker.register(new URL("sw.js", root), { updateViaCache: "none" });
  } catch (error) {
    // sw.js did not download (a network error, a host error): tried again later. Refused outright: not.
    if (error?.name === "SecurityError") throw Object.assign(error, { reason: UNAVAILABLE });
    throw error;
  }
  if (!registration) throw Object.assign(new Error("service workers are not available here"), { reason: UNAVAILABLE });
  const installing = registration.installing || registration.waiting;
  if (installing) {
    await new Promise((resolve, reject) => {
      const check = () => {
        if (installing.state === "activating" || installing.state === "activated") resolve();
        else if (installing.state === "redundant") {
          reject(new Error(installError ?? "the service worker's install failed"));
        }
      };
      installing.addEventListener("statechange", check);
      check();
    });
  }
  return registration;
}

// What the page says while offline reading is not set up (the text is the catalogs', in the page's
// language, from offline-messages.json: wiki/offline.py). Removed once an install succeeds.
async function showRetrying(error) {
  html.dataset.kwOffline = "retrying";
  html.dataset.kwOfflineError = String(error?.message ?? error);
  if (document.getElementById("kw-offline-notice")) return;
  const lang = html.lang || "";
  const messages = await fetch(new URL("offline-messages.json", root)).then((response) => response.json());
  const text = messages[lang]?.install_failed ?? messages[lang.split("-")[0]]?.install_failed;
  if (!text || document.getElementById("kw-offline-notice")) return;
  const notice = document.createElement("p");
  notice.id = "kw-offline-notice";
  notice.className = "kw-offline-notice";
  notice.setAttribute("role", "status");
  notice.textContent = text;
  (document.querySelector("article") ?? document.querySelector("main") ?? document.body).append(notice);
}

// Install, and after a failure try again with a growing delay (RETRY_MS) while the page is open; a later
// page before the delay is over waits for the rest of it (the delay is remembered per site).
async function installWithRetries() {
  for (;;) {
    const { failures, next, error } = retries();
    const wait = next - Date.now();
    if (failures && wait > 0) {
      showRetrying(error || "an earlier install failed").catch(() => {
        // The notice's text did not download either: data-kw-offline="retrying" says it for support.
      });
      await new Promise((resolve) => setTimeout(resolve, wait));
      await calm();
    }
    try {
      const registration = await install();
      remember(null);
      document.getElementById("kw-offline-notice")?.remove();
      delete html.dataset.kwOfflineError;
      return registration;
    } catch (error) {
      if (error?.reason === UNAVAILABLE) throw error;
      const count = retries().failures + 1;
      remember({ failures: count, next: Date.now() + RETRY_MS[Math.min(count, RETRY_MS.length) - 1],
        error: String(error?.message ?? error) });
      showRetrying(error).catch(() => {
        // The notice's text did not download either: data-kw-offline="retrying" says it for support.
      });
    }
  }
}

// Both at once: quiet (no boot) after a pause in typing. A boot that started meanwhile (the reader acted
// during the pause) is waited for again: the install never competes with it.
async function calm() {
  for (;;) {
    await quiet();
    await typingPause();
    if (!booting()) return;
  }
}

async function start() {
  await calm();
  await installWithRetries();
  const { active } = await navigator.serviceWorker.ready;
  if (html.dataset.kwOffline !== "runtime") html.dataset.kwOffline = "pages";
  // Once a first result is there (what the boot fetched), and again once a snapshot is kept for the next
  // visit (a plain boot makes one after its first answer, in its own cache, or downloads the build's).
  once(document.body, "data-state", () => document.querySelector('[data-calculator][data-state="ready"]'),
    () => keep(active));
  once(html, "data-kw-runtime", () => html.dataset.kwRuntime === "kept", () => keep(active));
}

if ("serviceWorker" in navigator) {
  navigator.serviceWorker.addEventListener("message", ({ data }) => {
    if (data?.type !== "install-failed") return;
    installError = data.error;
    html.dataset.kwOfflineError = data.error; // it may come after the worker is known to have failed
  });
  navigator.serviceWorker.startMessages();
  start().catch((error) => {
    // Service workers refused (a private window, a browser setting, a registration the host refuses:
    // sw.js missing): the site works online as before; the reason is kept for support.
    html.dataset.kwOffline = "off";
    html.dataset.kwOfflineError = String(error?.message ?? error);
  });
}
