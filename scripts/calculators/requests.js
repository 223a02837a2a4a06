// Requests to the worker: each widget's view, asked with a time limit; a worker that hangs or dies is
// replaced and the requests it had not answered are sent again, once, without the reader typing; only
// the widget whose request still fails says so. The messages are widgets/protocol.py's.

import { LIMITS, current, failure, startWorker, stopBoot } from "./boot.js";

const html = document.documentElement;
let answered = false; // whether the current worker has answered once (its later answers get LIMITS.request)
let nextId = 1;
const pending = new Map();

/** @param {ViewReply} reply */
function onReply(reply) {
  answered = true;
  const request = pending.get(reply.id);
  pending.delete(reply.id);
  if (reply.view) request?.resolve(reply.view);
  else request?.reject(failure(reply.reason || "python", reply.error)); // this request's widget only
}

const handlers = { onReply, onCrash: restartWorker };

/** Start the worker (or return its boot under way), its replies and its crash handled here. */
export function ensureWorker() {
  if (!current()) answered = false; // a new worker: its first answer gets the boot's limit
  return startWorker(handlers);
}

// Forget the worker (the next request starts a new one); its unanswered requests wait to be sent again.
function stopWorker() {
  stopBoot();
  answered = false;
  for (const entry of pending.values()) clearTimeout(entry.timer);
}

let restarting = null;

// A request went unanswered in time, or the worker died after its boot: stop it, start another and send it
// what the first had not answered, once, without the reader typing. A request that already had its second
// chance fails, and only the widget that asked says so (recompute()).
function restartWorker(error) {
  if (restarting) return;
  const waiting = [...pending.values()];
  for (const entry of waiting.filter(({ tries }) => tries >= 2)) {
    pending.delete(entry.message.id);
    entry.reject(error);
  }
  const again = waiting.filter(({ tries }) => tries < 2);
  // A trace for whoever supports a reader: how often, and why last (the widgets record their own failures).
  html.dataset.kwWorkerRestarts = String(Number(html.dataset.kwWorkerRestarts || 0) + 1);
  html.dataset.kwWorkerError = `${error.reason}: ${error.message}`;
  stopWorker();
  if (!again.length) return; // nothing to answer: the next request starts a new worker
  restarting = ensureWorker().then(
    () => { for (const entry of again) if (pending.has(entry.message.id)) send(entry); },
    (bootError) => {
      for (const entry of again) {
        pending.delete(entry.message.id);
        entry.reject(bootError);
      }
    },
  ).finally(() => { restarting = null; });
}

// Send a request (again) to the current worker. No answer within the limit: the worker hangs, or died
// without a word (a thread that ends itself says nothing): restartWorker().
function send(entry) {
  entry.tries += 1;
  clearTimeout(entry.timer);
  entry.timer = setTimeout(() => restartWorker(failure("timeout", "no answer")),
    answered ? LIMITS.request : LIMITS.stall);
  current().postMessage(entry.message);
}

/**
 * Ask the worker for a widget's view; `link`: a link's values, laid over the form's text by Python.
 * @param {string} name
 * @param {ViewRequest["inputs"]} inputs
 * @param {string} lang
 * @param {Link | undefined | null} link
 * @returns {Promise<View | ViewFailure>}
 */
export function ask(name, inputs, lang, link) {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    /** @type {ViewRequest} */
    const message = { type: "view", id, name, inputs, lang, ...(link ? { link } : {}) };
    const entry = { message, tries: 0, timer: null };
    entry.resolve = (view) => { clearTimeout(entry.timer); resolve(view); };
    entry.reject = (error) => { clearTimeout(entry.timer); reject(error); };
    pending.set(id, entry);
    send(entry);
  });
}
