// Types for tsc (tsconfig.sw.json) of the service worker, wiki/sw.js. Declarations only: nothing here runs.
export {};

declare global {
  /** The build's data, the line wiki/offline.py writes before sw.js's source (URLs relative to the root). */
  const BUILD: {
    cache: string;
    shell: string[];
    later: string[];
    runtime: { common: string[]; snapshot: string[]; plain: string[] };
    dirs: string[];
    gzipped: string[];
    notFound: Record<string, string>;
  };

  /** sw.js runs as a service worker: its `self` has the service worker's members it uses. */
  interface WorkerGlobalScope {
    readonly clients: Clients;
    skipWaiting(): Promise<void>;
  }

  /** Static routing (Chromium 123+), where the browser has it: sw.js checks before calling. */
  interface InstallEvent extends ExtendableEvent {
    addRoutes?(rules: { condition: { urlPattern: URLPattern }; source: "cache" }[]): Promise<void>;
  }

  /** The URL Pattern API (Chromium), which TypeScript's lib.dom does not declare yet. */
  class URLPattern {
    constructor(init: { pathname?: string; search?: string });
  }
}
