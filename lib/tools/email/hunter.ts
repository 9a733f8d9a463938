import { callProvider } from "../provider-http.ts";
import type { ToolContext } from "../types.ts";
import { trimChar } from "../../text.ts";

// Hunter.io email-finder: a name plus a domain → the address Hunter has seen or inferred, a
// 0-100 score, and (when Hunter has checked it) an SMTP verification status.

export interface HunterFinding {
  email: string;
  score: number | null;
  /** valid, accept_all, unknown, invalid, webmail, disposable, or null when never verified. */
  verification: string | null;
  sources: { uri: string; domain: string; extractedOn?: string }[];
}

export interface HunterQuery {
  first: string;
  last?: string;
  domain: string;
}

const EMAIL = /^[^\s@<>"]{1,64}@[a-z0-9.-]{1,253}$/i;

export async function findWithHunter(
  q: HunterQuery,
  ctx: Pick<ToolContext, "config" | "limits" | "signal" | "fetchImpl">,
): Promise<HunterFinding | null> {
  const { apiKey, baseUrl } = ctx.config.hunter;
  if (!apiKey) return null;
  const url = new URL(`${trimChar(baseUrl, "/", "end")}/v2/email-finder`);
  url.searchParams.set("domain", q.domain);
  url.searchParams.set("first_name", q.first);
  if (q.last) url.searchParams.set("last_name", q.last);
  url.searchParams.set("api_key", apiKey);

  const { json } = await callProvider({
    provider: "Hunter.io",
    url: url.href,
    init: { headers: { accept: "application/json" } },
    limits: ctx.limits,
    signal: ctx.signal,
    fetchImpl: ctx.fetchImpl,
  });
  const data = (json as { data?: Record<string, any> } | null)?.data;
  const email = typeof data?.email === "string" ? data.email.trim().toLowerCase() : "";
  if (!data || !EMAIL.test(email)) return null;
  const sources = Array.isArray(data.sources) ? data.sources : [];
  return {
    email,
    score: typeof data.score === "number" ? data.score : null,
    verification: typeof data.verification?.status === "string" ? data.verification.status : null,
    sources: sources
      .filter((s: any) => typeof s?.uri === "string" && /^https?:\/\//i.test(s.uri))
      .slice(0, 5)
      .map((s: any) => ({ uri: s.uri, domain: String(s.domain ?? ""), extractedOn: s.extracted_on })),
  };
}

/** Maps Hunter's verification and score to our 0-1 confidence; null means "do not use". */
export function hunterConfidence(f: HunterFinding): number | null {
  const score = f.score === null ? 0.5 : Math.max(0, Math.min(100, f.score)) / 100;
  switch (f.verification) {
    case "valid":
      return Math.min(0.97, Math.max(0.9, score));
    case "accept_all":
      // The server accepts any address, so the mailbox itself is unconfirmed.
      return Math.min(0.75, score);
    case "invalid":
    case "disposable":
      return null;
    default:
      return Math.min(0.6, score);
  }
}
