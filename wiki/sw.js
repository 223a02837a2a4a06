// Service worker of the Kentino Wiki: both languages' pages read offline, and the live calculators'
// runtime kept so that every later page and visit boots without asking the network.
// The build (wiki/offline.py) writes this file to the site root as sw.js, after one line that defines
//   BUILD = {cache, shell, later, runtime: {common, snapshot, plain}, dirs, gzipped, notFound}
// (URLs relative to the site root): its scope is the site root, wherever the site is hosted.
//
// - The shell (every page of both languages, the theme's and our assets) is cached at install and
//   served from the cache. What only a search loads (`later`: the indexes, Lunr) is cached as a first
//   search fetches it: a reader who never searches does not download it; the calculator pages and KaTeX
//   (`later` too) are cached as a reader first opens them. Pages and assets of one
//   build always come together (our own scripts have no content hash in their names); a new build is
//   a new sw.js, which the browser finds when it checks for an update after a navigation: it caches
//   the new build, takes over and deletes the old cache, and the next page is the new build's.
// - The runtime (/pyodide/: paths versioned by Pyodide's version and our content digest, immutable)
//   is cache-first: cached as a boot fetches it, or copied from the browser's HTTP cache when the
//   page says a boot is done ("keep"); never downloaded for the cache alone (Save-Data, 2G, metered
//   lines pay nothing extra). The memory snapshot and the trimmed standard library travel gzipped
//   (`gzipped`) and are kept decompressed: a later boot reads the snapshot without inflating 14 MB on its
//   worker's thread first (warm visits, four alternated rounds of five: the reader's input → first
//   result 426 ms, 474 before).
// - Anything else goes to the network as if there were no service worker.
// - Caches belong to the origin, which several sites may share (two GitHub Pages project sites of one
//   account: /a/ and /b/): this site's cache is named after its scope (`CACHE`), and only this site's
//   caches are ever deleted here (the old builds' of the same scope), never another site's.
// - An install that fails (one file that does not download) keeps what it cached: the next try, which
//   offline.js makes later with a growing delay, fetches only what is missing.

const SCOPE = new URL("./", self.location.href).href;
const PREFIX = `kw:${new URL(SCOPE).pathname}:`;
const CACHE = PREFIX + BUILD.cache;
// Where the calculators' worker keeps the snapshot it made of a plain boot (calculator-worker.js
// madeCacheName): this site's too, not a build's, so a new build leaves it (the worker replaces its entry).
const MADE = PREFIX + "made";
const INSTALL_FETCHES = 6; // the shell's files fetched at once at install
// Held (shared) by every page of the origin that boots, until its first answer (calculator-worker.js
// BOOT_LOCK). What this worker downloads and copies into its cache (the shell, the runtime: 3.5 MB of .wasm
// written to disk, the standard library decompressed) waits while one does: the next page, opened 3 s after
// the first one's result, booted ~0.1 s later while the first page's "keep" copied the runtime.
const BOOT_LOCK = "kw-boot";
const BOOT_POLL_MS = 100;
const absolute = (path) => new URL(path, SCOPE).href;
const SHELL = BUILD.shell.map(absolute);
const SHELL_SET = new Set(SHELL);
const LATER_SET = new Set(BUILD.later.map(absolute));
const RUNTIME = Object.fromEntries(Object.entries(BUILD.runtime).map(([boot, paths]) => [boot, paths.map(absolute)]));
const RUNTIME_DIRS = BUILD.dirs.map(absolute);
const GZIPPED = new Set(BUILD.gzipped.map(absolute));
const NOT_FOUND = Object.entries(BUILD.notFound).map(([folder, errorPage]) => [absolute(folder), absolute(errorPage)])
  .sort(([a], [b]) => b.length - a.length);

// What the cache keeps of a runtime file: a gzipped one decompressed (the worker reads either). A host
// that sent it with its own `Content-Encoding: gzip` has had it decoded by the browser already: its first
// byte says which (a gzip starts with 0x1f).
/**
 * @param {string} href
 * @param {Response} response
 * @returns {Promise<Response>}
 */
async function kept(href, response) {
  if (!GZIPPED.has(href) || !response.body) return response;
  const [peek, body] = response.body.tee();
  const reader = peek.getReader();
  const { value } = await reader.read();
  reader.cancel();
  const headers = new Headers(response.headers);
  headers.delete("Content-Length");
  return new Response(value?.[0] === 0x1f ? body.pipeThrough(new DecompressionStream("gzip")) : body, { headers });
}

// Where the browser supports it (static routing), the runtime, this build's assets and its pages are
// read from the cache without starting this worker's script for each of them (a miss goes to the
// network). Search's `later` files are not routed: the worker caches them as they are fetched. A later
// visit's page then does not wait for the worker to start (bench's warm first result, 4 alternated
// rounds: 808-897 ms against 845-972 ms). A page with a query, or one this build
// lacks, comes through page() below (its query ignored; offline, the language's 404 page).
function addRoutes(event) {
  const path = new URL(SCOPE).pathname;
  const cached = (pathname, search = "*") => ({ condition: { urlPattern: new URLPattern({ pathname, search }) },
    source: "cache" });
  const pages = SHELL.filter((href) => href.endsWith("/")).map((href) => cached(new URL(href).pathname, ""));
  const assets = SHELL.filter((href) => href.startsWith(absolute("assets/")))
    .map((href) => cached(new URL(href).pathname));
  return event.addRoutes([cached(path + "pyodide/*"), ...assets, ...pages]);
}

/** Resolves once no page of this origin is booting (BOOT_LOCK held or asked for by none). */
async function noBootUnderWay() {
  for (;;) {
    let booting = false;
    try {
      const { held = [], pending = [] } = await navigator.locks.query();
      booting = [...held, ...pending].some((lock) => lock.name === BOOT_LOCK);
    } catch {
      return; // no Web Locks here: nothing to wait for (the pages' own "quiet" still holds the install back)
    }
    if (!booting) return;
    await new Promise((resolve) => setTimeout(resolve, BOOT_POLL_MS));
  }
}

/**
 * Fetch and cache each of `hrefs` not held yet, INSTALL_FETCHES at a time, each as it arrives; fails,
 * once every fetch has ended, if one did not come whole (what came stays for the next try).
 */
async function cacheAll(cache, hrefs) {
  const missing = [];
  for (const href of hrefs) if (!(await cache.match(href))) missing.push(href);
  const failed = [];
  const next = async () => {
    for (let href = missing.shift(); href; href = missing.shift()) {
      await noBootUnderWay();
      try {
        // `no-cache`: the new build's files, not what the HTTP cache may still hold of the old one.
        const response = await fetch(href, { cache: "no-cache" });
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        await cache.put(href, response);
      } catch (error) {
        failed.push(`${href}: ${error?.message ?? error}`); // the install fails below, naming it
      }
    }
  };
  await Promise.all(Array.from({ length: INSTALL_FETCHES }, next));
  if (failed.length) throw new Error(`not cached: ${failed.join("; ")}`);
}

self.addEventListener("install", (/** @type {InstallEvent} */ event) => {
  event.waitUntil((async () => {
    // No static routing here, or rules it refuses: the fetch handler below serves the same files.
    if (event.addRoutes) await addRoutes(event).catch(() => {});
    const cache = await caches.open(CACHE);
    try {
      await cacheAll(cache, SHELL);
    } catch (error) {
      // The install fails; the pages hear why first (offline.js puts it on html[data-kw-offline-error]).
      for (const client of await self.clients.matchAll({ includeUncontrolled: true, type: "window" })) {
        client.postMessage({ type: "install-failed", error: String(error?.message ?? error) });
      }
      throw error;
    }
    // Runtime files are immutable by their path: those an earlier build's cache holds are carried over.
    for (const href of Object.values(RUNTIME).flat()) {
      const held = await caches.match(href);
      if (held) await cache.put(href, held);
    }
    await self.skipWaiting();
  })());
});

// A cache of the builds before scoped names ("kw-<digest>") is this site's if it holds this site's home page.
async function olderOfThisSite(name) {
  return /^kw-[0-9a-f]{16}$/.test(name) && Boolean(await (await caches.open(name)).match(SCOPE));
}

self.addEventListener("activate", (/** @type {ExtendableEvent} */ event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name === CACHE || name === MADE) continue;
      if (name.startsWith(PREFIX) || await olderOfThisSite(name)) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

// A page: from the cache, else the network (a `later` page, one of the calculator pages, is kept as it
// comes), else (offline, a page this build does not have) the error page of its language.
async function page(event) {
  const { request } = event;
  const cache = await caches.open(CACHE);
  const held = await cache.match(request, { ignoreSearch: true });
  if (held) return held;
  try {
    const response = await fetch(request);
    const key = request.url.split(/[?#]/)[0];
    if (LATER_SET.has(key) && response.status === 200 && response.type === "basic") {
      // Not kept (a full disk, a body cut off): the reader has the page; the next visit online keeps it.
      event.waitUntil(cache.put(key, response.clone()).catch(() => {}));
    }
    return response;
  } catch (error) {
    const fallback = await cache.match(notFoundPage(request.url));
    if (fallback) return fallback;
    throw error;
  }
}

// The error page of the language whose folder holds `url`: the longest matching folder of BUILD.notFound
// ("" is the default language's, at the root, so one always matches).
function notFoundPage(url) {
  return NOT_FOUND.find(([folder]) => url.startsWith(folder))[1];
}

// A runtime file (by its URL) or a file of search (without its query): from the cache, else fetched (the
// request keeps the client's abort signal and cache mode) and cached on the way under `key` if whole.
async function keptOnFetch(event, key) {
  const cache = await caches.open(CACHE);
  const held = await cache.match(key);
  if (held) return held;
  const response = await fetch(event.request);
  if (response.status === 200 && response.type === "basic") {
    // A download cut off (the reader left; the HTTP cache keeps its bytes for a Range request) or a full
    // disk: not kept now. The client has its response either way, and "keep" copies the file later.
    const copy = response.clone();
    event.waitUntil(noBootUnderWay().then(() => kept(key, copy)).then((body) => cache.put(key, body)).catch(() => {}));
  }
  return response;
}

async function shellFile(request) {
  const held = await caches.match(request.url, { cacheName: CACHE });
  return held || fetch(request);
}

self.addEventListener("fetch", (/** @type {FetchEvent} */ event) => {
  const { request } = event;
  if (request.method !== "GET" || request.headers.has("range")) return;
  const href = request.url.split("#")[0];
  const file = href.split("?")[0];
  if (request.mode === "navigate") {
    if (href.startsWith(SCOPE)) event.respondWith(page(event));
  } else if (RUNTIME_DIRS.some((dir) => href.startsWith(dir))) {
    event.respondWith(keptOnFetch(event, request.url));
  } else if (SHELL_SET.has(file)) {
    event.respondWith(shellFile(request));
  } else if (LATER_SET.has(file)) {
    event.respondWith(keptOnFetch(event, file));
  }
});

// "keep" (after a boot): copy the runtime files the HTTP cache holds into this build's cache (no
// network: `only-if-cached`), then answer whether the calculators can now boot offline, and why not
// when a file the HTTP cache held could not be kept (a full disk, a body that does not decompress).
async function keepRuntime() {
  const cache = await caches.open(CACHE);
  const held = new Set();
  const failed = [];
  for (const href of Object.values(RUNTIME).flat()) {
    await noBootUnderWay();
    if (await cache.match(href)) {
      held.add(href);
      continue;
    }
    let response = null;
    try {
      response = await fetch(href, { cache: "only-if-cached", mode: "same-origin" });
    } catch {
      // not in the HTTP cache: cached when a later boot fetches it
    }
    if (response?.status !== 200) continue;
    try {
      await cache.put(href, await kept(href, response));
      held.add(href);
    } catch (error) {
      failed.push(`${href}: ${error?.message ?? error}`);
    }
  }
  const has = (boot) => RUNTIME[boot].every((href) => held.has(href));
  const offline = has("common") && (has("snapshot") || has("plain"));
  return { offline, ...(failed.length && !offline ? { error: `not kept: ${failed.join("; ")}` } : {}) };
}

self.addEventListener("message", (/** @type {ExtendableMessageEvent} */ event) => {
  if (event.data?.type !== "keep") return;
  const [port] = event.ports;
  event.waitUntil(keepRuntime().then(
    (answer) => port?.postMessage({ type: "kept", ...answer }),
    (error) => port?.postMessage({ type: "kept", offline: false, error: String(error?.message ?? error) }),
  ));
});
