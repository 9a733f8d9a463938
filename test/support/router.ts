import path from "node:path";
import { readdirSync, statSync } from "node:fs";

// Dispatches real Request objects to the app's route handler modules, matched the way the
// Next.js App Router matches folders: static segments first, then [param], then [...catchAll].

interface RouteEntry {
  file: string;
  segments: string[];
}

const appApi = path.resolve(import.meta.dirname, "../../app/api");

function collect(dir: string, segments: string[], out: RouteEntry[]) {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) collect(full, [...segments, name], out);
    else if (name === "route.ts") out.push({ file: full, segments });
  }
}

const routes: RouteEntry[] = [];
collect(appApi, ["api"], routes);

const rank = (s: string) => (s.startsWith("[...") || s.startsWith("[[...") ? 2 : s.startsWith("[") ? 1 : 0);

function match(entry: RouteEntry, parts: string[]): Record<string, string | string[]> | null {
  const params: Record<string, string | string[]> = {};
  for (let i = 0; i < entry.segments.length; i++) {
    const seg = entry.segments[i];
    if (seg.startsWith("[[...")) {
      // An optional catch-all matches no segment too.
      params[seg.slice(5, -2)] = parts.slice(i);
      return params;
    }
    if (seg.startsWith("[...")) {
      if (i >= parts.length) return null;
      params[seg.slice(4, -1)] = parts.slice(i);
      return params;
    }
    if (i >= parts.length) return null;
    if (seg.startsWith("[")) params[seg.slice(1, -1)] = decodeURIComponent(parts[i]);
    else if (seg !== parts[i]) return null;
  }
  return entry.segments.length === parts.length ? params : null;
}

function score(entry: RouteEntry): number[] {
  return entry.segments.map(rank);
}

export async function dispatch(req: Request): Promise<Response> {
  const parts = new URL(req.url).pathname.split("/").filter(Boolean);
  const candidates = routes
    .map((r) => ({ r, params: match(r, parts) }))
    .filter((c) => c.params !== null)
    .sort((a, b) => {
      const sa = score(a.r);
      const sb = score(b.r);
      for (let i = 0; i < Math.max(sa.length, sb.length); i++)
        if ((sa[i] ?? 0) !== (sb[i] ?? 0)) return (sa[i] ?? 0) - (sb[i] ?? 0);
      return 0;
    });
  const hit = candidates[0];
  if (!hit) return new Response("no route", { status: 404 });
  const mod = (await import(hit.r.file)) as Record<string, (req: Request, ctx: unknown) => Promise<Response>>;
  const handler = mod[req.method];
  if (!handler) return new Response(null, { status: 405 });
  return handler(req, { params: Promise.resolve(hit.params) });
}
