// What bench:ui runs inside the page, as plain JavaScript: the same probe goes into the grid and
// into the floor page, so both are measured alike. It is a string, not a function, because the
// bench's TypeScript loader may wrap functions in helpers the page does not have.
//
// A loaded row is a row element that is not the header and not a placeholder (aria-busy).

export const SCROLLER = "[data-testid=grid]";

export const probeScript = `
(() => {
  const LOADED = '[role=row][aria-rowindex]:not([aria-busy]):not([aria-rowindex="1"])';
  const scroller = () => document.querySelector(${JSON.stringify(SCROLLER)});
  const frame = () => new Promise((r) => requestAnimationFrame(r));

  function loadedInView(el) {
    const box = el.getBoundingClientRect();
    return [...el.querySelectorAll(LOADED)].filter((row) => {
      const r = row.getBoundingClientRect();
      return r.bottom > box.top + 40 && r.top < box.bottom && row.textContent.trim() !== "";
    });
  }

  // Frame times: the gaps between animation frames while a phase runs.
  function sampleFrames() {
    const gaps = [];
    let last = 0;
    let on = true;
    const tick = (t) => {
      if (!on) return;
      if (last) gaps.push(t - last);
      last = t;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    return () => ((on = false), gaps);
  }

  // First rows: performance.now() counts from the navigation's start.
  window.__firstRows = null;
  (async () => {
    for (;;) {
      const el = scroller();
      if (el && loadedInView(el).length > 0) return (window.__firstRows = performance.now());
      await frame();
    }
  })();

  window.__bench = {
    async scroll(steps, durationMs) {
      const el = scroller();
      const stop = sampleFrames();
      const seen = new Set();
      let blank = 0;
      const max = el.scrollHeight - el.clientHeight;
      const t0 = performance.now();
      for (let i = 0; i < steps; i++) {
        el.scrollTop = Math.round((max * i) / (steps - 1));
        const due = t0 + (durationMs * (i + 1)) / steps;
        await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
        const loaded = loadedInView(el);
        if (loaded.length === 0) blank++;
        for (const row of loaded) seen.add(row.getAttribute("aria-rowindex"));
      }
      const gaps = stop();
      const end = performance.now();
      while (loadedInView(el).length === 0 && performance.now() - end < 10000) await frame();
      return { gaps, blank, seen: seen.size, settleMs: performance.now() - end, atBottom: el.scrollTop >= max - 2 };
    },
    async frames(ms) {
      const stop = sampleFrames();
      await new Promise((r) => setTimeout(r, ms));
      return stop();
    },
    toTop() {
      scroller().scrollTop = 0;
    },
    /** Jumps to a fraction of the height; resolves with the time until a loaded row is in view. */
    async jump(fraction) {
      const el = scroller();
      const t0 = performance.now();
      el.scrollTop = Math.round((el.scrollHeight - el.clientHeight) * fraction);
      while (loadedInView(el).length === 0 && performance.now() - t0 < 30000) await frame();
      return performance.now() - t0;
    },
    /** The text of the cell at a 1-based row number and a 1-based data column. */
    cell(row, column) {
      const el = document.querySelector('[role=row][aria-rowindex="' + (row + 1) + '"]:not([aria-busy]) [aria-colindex="' + (column + 1) + '"]');
      return el ? el.textContent : null;
    },
  };
})();
`;
