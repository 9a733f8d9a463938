import { createServer, type Server } from "node:http";

// bench:ui's floor: a plain-DOM virtual list of the same rows (same row height, same number of
// cells, same ARIA markup the probe looks for), every row already in memory, no framework. What
// the grid measures beyond this is the grid's own cost. `?live=1` changes 1,000 cells a second
// among the first rows, as the grid's live-update phase does through the API.

const page = (rows: number, columns: number) => `<!doctype html>
<html><head><meta charset="utf-8"><title>floor</title>
<style>
  body { margin: 0; font: 13px system-ui, sans-serif; }
  #grid { position: absolute; inset: 56px 0 0 0; overflow: auto; }
  .row { position: absolute; left: 0; display: flex; height: 36px; }
  .row > div { width: 180px; flex: none; border: solid #ddd; border-width: 0 1px 1px 0; padding: 0 8px; line-height: 36px; overflow: hidden; white-space: nowrap; }
  .row > div:first-child { width: 80px; }
</style></head>
<body><div id="grid" data-testid="grid" role="grid"><div id="body" style="position: relative"></div></div>
<script>
  const ROWS = ${rows}, COLUMNS = ${columns}, H = 36, HEADER = 36;
  const data = Array.from({ length: ROWS }, (_, i) => Array.from({ length: COLUMNS }, (_, c) => c === 0 ? "Row " + (i + 1) : "v" + ((i * 7 + c) % 997)));
  const grid = document.getElementById("grid"), body = document.getElementById("body");
  body.style.height = HEADER + ROWS * H + "px";
  body.style.width = 80 + COLUMNS * 180 + "px";
  function render() {
    const first = Math.max(0, Math.floor((grid.scrollTop - HEADER) / H) - 10);
    const last = Math.min(ROWS, Math.ceil((grid.scrollTop + grid.clientHeight) / H) + 10);
    const frag = document.createDocumentFragment();
    for (let i = first; i < last; i++) {
      const row = document.createElement("div");
      row.className = "row";
      row.setAttribute("role", "row");
      row.setAttribute("aria-rowindex", String(i + 2));
      row.style.transform = "translateY(" + (HEADER + i * H) + "px)";
      const gutter = document.createElement("div");
      gutter.textContent = String(i + 1);
      row.appendChild(gutter);
      data[i].forEach((v, c) => {
        const cell = document.createElement("div");
        cell.setAttribute("role", "gridcell");
        cell.setAttribute("aria-colindex", String(c + 2));
        cell.textContent = v;
        row.appendChild(cell);
      });
      frag.appendChild(row);
    }
    body.replaceChildren(frag);
  }
  grid.addEventListener("scroll", render, { passive: true });
  render();
  if (location.search.includes("live=1")) {
    let n = 0;
    setInterval(() => {
      for (let k = 0; k < 100; k++, n++) data[(n * 7) % 200][1 + (n % (COLUMNS - 1))] = "live " + n;
      render();
    }, 100);
  }
</script></body></html>`;

/** Serves the floor page on 127.0.0.1; resolves with its URL and a way to stop it. */
export async function serveFloor(rows: number, columns: number): Promise<{ url: string; close(): Promise<void> }> {
  const html = page(rows, columns);
  const server: Server = createServer((_req, res) =>
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
