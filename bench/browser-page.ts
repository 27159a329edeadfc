// What the browser bench runs inside the page: observers installed before the app's first script (long tasks,
// the moment a selector first appears), a requestAnimationFrame counter over a window, and a search typed into
// an input timed until a caption says the filtered list is in the DOM. Strings, because they run in Chromium.

export interface LongTask {
  start: number;
  duration: number;
}

export interface FrameWindow {
  frames: number;
  ms: number;
  longTasks: LongTask[];
  /** How far the top bar's event sequence number moved: events the server recorded and this page applied. */
  events: number;
}

/** The top bar's "seq N". */
const SEQ = `Number([...document.querySelectorAll('header span')].find((s) => /^seq \\d/.test(s.textContent))?.querySelector('b')?.textContent ?? NaN)`;

/** Installed with page.addInitScript: long tasks from navigation start, and when `selector` first matched. */
export function initScript(selector: string): string {
  return `(() => {
    const b = (window.__bench = { longTasks: [], firstAt: undefined });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) b.longTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
    const sel = ${JSON.stringify(selector)};
    const seen = () => {
      if (b.firstAt === undefined && document.querySelector(sel)) {
        b.firstAt = performance.now();
        mo.disconnect();
      }
    };
    const mo = new MutationObserver(seen);
    mo.observe(document, { childList: true, subtree: true });
  })()`;
}

/** Resolves with the first-render time (ms since navigation start) once the selector has matched. */
export const FIRST_RENDER = `new Promise((ok) => {
  const poll = () => (window.__bench.firstAt !== undefined ? ok(window.__bench.firstAt) : setTimeout(poll, 20));
  poll();
})`;

/** When the app's script finished arriving, ms since navigation start. */
export const SCRIPT_LOADED = `performance.getEntriesByType('resource').filter((e) => e.name.endsWith('.js')).reduce((m, e) => Math.max(m, e.responseEnd), 0)`;

/** Counts frames and collects long tasks for `ms`. */
export function frameWindow(ms: number): string {
  return `new Promise((ok) => {
    const b = window.__bench;
    const from = b.longTasks.length;
    let frames = 0;
    let on = true;
    const t0 = performance.now();
    const seq0 = ${SEQ};
    const f = () => { if (!on) return; frames++; requestAnimationFrame(f); };
    requestAnimationFrame(f);
    setTimeout(() => {
      on = false;
      ok({ frames, ms: performance.now() - t0, longTasks: b.longTasks.slice(from), events: ${SEQ} - seq0 });
    }, ${ms});
  })`;
}

export interface SearchTiming {
  /** From the input event to the caption naming the expected count with the first row matching. */
  renderedMs: number;
  /** The same, to the next animation frame after it (the frame that paints it). */
  frameMs: number;
}

/**
 * Types `query` into the input at once (one input event, as a paste would) and times it until the list's
 * caption starts with `caption` and its first row contains the query.
 */
export function timedSearch(
  input: string,
  list: string,
  captionEl: string,
  caption: string,
  query: string,
  timeoutMs: number,
): string {
  return `new Promise((ok, fail) => {
    const el = document.querySelector(${JSON.stringify(input)});
    if (!el) return fail(new Error('no search input'));
    const done = () => {
      const cap = document.querySelector(${JSON.stringify(captionEl)});
      const row = document.querySelector(${JSON.stringify(`${list} tbody tr:not(.spacer)`)});
      return !!cap && cap.textContent.startsWith(${JSON.stringify(caption)}) &&
        (${JSON.stringify(query)} === '' || (!!row && row.textContent.includes(${JSON.stringify(query)})));
    };
    let t0 = 0;
    const finish = () => {
      mo.disconnect();
      clearTimeout(timer);
      const renderedMs = performance.now() - t0;
      requestAnimationFrame(() => ok({ renderedMs, frameMs: performance.now() - t0 }));
    };
    const mo = new MutationObserver(() => { if (done()) finish(); });
    const timer = setTimeout(() => { mo.disconnect(); fail(new Error('search for "' + ${JSON.stringify(query)} + '" did not render within ${timeoutMs} ms: ' + (document.querySelector(${JSON.stringify(captionEl)})?.textContent ?? 'no caption'))); }, ${timeoutMs});
    mo.observe(document.body, { childList: true, subtree: true, characterData: true });
    const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
    t0 = performance.now();
    set.call(el, ${JSON.stringify(query)});
    el.dispatchEvent(new Event('input', { bubbles: true }));
  })`;
}

/** True once the list's caption names at least `keys` keys and no "N of M shown" (every key listed). */
export function listedAll(caption: string, keys: number): string {
  return `(() => {
    const t = document.querySelector(${JSON.stringify(caption)})?.textContent ?? '';
    const m = /^([\\d.,]+)(k|M)? keys$/.exec(t);
    if (!m) return false;
    const n = Number(m[1].replace(/,/g, '')) * (m[2] === 'k' ? 1000 : m[2] === 'M' ? 1e6 : 1);
    return n >= ${keys};
  })()`;
}

export interface SwitchTiming {
  /** From the click's input event to the animation frame after the new panel is in the DOM and visible. */
  paintMs: number;
  /** Long tasks from the click until `settleMs` after that frame (its charts mounting in the background too). */
  longTasks: LongTask[];
}

/**
 * Arms a switch to `panel`: the next click on the page starts the clock (its event timestamp, so time the
 * input waited behind a busy main thread counts); the promise `switchDone` resolves once the panel has
 * painted and `settleMs` have passed. The click itself is the bench's, through the real navigation.
 */
export function armSwitch(panel: string, settleMs: number, timeoutMs: number): string {
  return `(() => {
    const b = window.__bench;
    const sel = ${JSON.stringify(`[data-testid="panel-${panel}"]`)};
    b.switchDone = new Promise((ok, fail) => {
      let t0 = -1;
      let seen = false;
      const visible = () => {
        const el = document.querySelector(sel);
        return !!el && el.checkVisibility();
      };
      const check = () => {
        if (seen || t0 < 0 || !visible()) return;
        seen = true;
        mo.disconnect();
        requestAnimationFrame(() => {
          const paintMs = performance.now() - t0;
          setTimeout(() => {
            clearTimeout(timer);
            const end = t0 + paintMs + ${settleMs};
            ok({ paintMs, longTasks: b.longTasks.filter((t) => t.start + t.duration >= t0 && t.start <= end) });
          }, ${settleMs});
        });
      };
      const mo = new MutationObserver(check);
      document.addEventListener('click', (e) => {
        t0 = e.timeStamp;
        mo.observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['style', 'class'] });
        check();
      }, { capture: true, once: true });
      const timer = setTimeout(() => { mo.disconnect(); fail(new Error('panel ${panel} did not show within ${timeoutMs} ms')); }, ${timeoutMs});
    });
  })()`;
}

export const SWITCH_DONE = 'window.__bench.switchDone';
