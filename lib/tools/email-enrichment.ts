import { z } from "zod";
import { appError, isAppError } from "../errors.ts";
import { nowIso } from "./documents.ts";
import { systemDnsResolver, usableMx } from "./email/dns.ts";
import { isDisposableDomain, normalizeDomain } from "./email/domain.ts";
import { findWithHunter, hunterConfidence, type HunterFinding } from "./email/hunter.ts";
import { candidateEmails, foldNamePart, splitName, type PersonName } from "./email/patterns.ts";
import type { CellTool, MxRecord, ToolContext, ToolDocument, ToolResult } from "./types.ts";

// email-enrichment: a person's work address from their name and company domain. Hunter.io is
// asked first when configured; otherwise (or when Hunter knows nothing) the most common
// pattern is offered as a guess, but only if the domain accepts mail at all. The result always
// says which of the three happened, and a guess is never called verified.

const inputSchema = z.object({
  name: z.string().trim().min(1).max(200).describe('The person\'s full name, e.g. "Ada Lovelace".'),
  domain: z
    .string()
    .trim()
    .min(1)
    .max(500)
    .describe('The company\'s domain or website, e.g. "acme.com" or "https://www.acme.com".'),
  firstName: z.string().trim().max(100).optional().describe("Given name, when known separately."),
  lastName: z.string().trim().max(100).optional().describe("Family name, when known separately."),
});
export type EmailEnrichmentInput = z.infer<typeof inputSchema>;

export type EmailStatus = "provider" | "pattern_mx_valid" | "no_mx";

export interface EmailEnrichmentOutput {
  email: string | null;
  status: EmailStatus;
  /** 0-1. Pattern guesses stay low: the MX check proves the domain takes mail, not the mailbox. */
  confidence: number;
  verified: boolean;
  domain: string;
  candidates: string[];
  mx: string[];
  explanation: string;
}

/** Confidence of the best pattern guess on a domain that accepts mail. */
export const PATTERN_CONFIDENCE = 0.25;

async function execute(input: EmailEnrichmentInput, ctx: ToolContext): Promise<ToolResult> {
  const domain = normalizeDomain(input.domain);
  if (await isDisposableDomain(domain)) {
    throw appError("disposable_domain", `${domain} is a disposable email provider, not a company domain.`);
  }
  const name = personName(input);
  const candidates = candidateEmails(name, domain);
  const retrievedAt = nowIso(ctx);
  const notes: string[] = [];

  let finding: HunterFinding | null = null;
  try {
    finding = await findWithHunter({ ...name, domain }, ctx);
  } catch (e) {
    if (!isAppError(e)) throw e;
    // Hunter being down or out of credits should not cost the user the pattern guess.
    notes.push(`Hunter.io lookup failed: ${e.message}`);
  }
  const hunterScore = finding ? hunterConfidence(finding) : null;
  if (finding && hunterScore !== null) {
    const output: EmailEnrichmentOutput = {
      email: finding.email,
      status: "provider",
      confidence: hunterScore,
      verified: finding.verification === "valid",
      domain,
      candidates: candidates.slice(0, 5),
      mx: [],
      explanation:
        `Found by Hunter.io (score ${finding.score ?? "n/a"}, verification ${finding.verification ?? "none"}).` +
        (notes.length ? ` ${notes.join(" ")}` : ""),
    };
    return { documents: hunterDocuments(finding, domain, retrievedAt), output };
  }
  if (finding) notes.push(`Hunter.io suggested ${finding.email} but marked it ${finding.verification}; ignored.`);

  const mx = usableMx(await lookupMx(domain, ctx));
  const mxHosts = mx.map((r: MxRecord) => r.exchange);
  const hasMx = mxHosts.length > 0;
  const output: EmailEnrichmentOutput = {
    email: hasMx ? candidates[0] : null,
    status: hasMx ? "pattern_mx_valid" : "no_mx",
    confidence: hasMx ? PATTERN_CONFIDENCE : 0,
    verified: false,
    domain,
    candidates: candidates.slice(0, 5),
    mx: mxHosts,
    explanation: [
      hasMx
        ? `Unverified guess from the most common pattern (first.last); ${domain} accepts mail (MX: ` +
          `${mxHosts.slice(0, 3).join(", ")}), but the mailbox itself was not checked.`
        : `${domain} has no mail servers (no MX records), so no address there can receive mail.`,
      ...notes,
    ].join(" "),
  };
  const document: ToolDocument = {
    url: `https://${domain}`,
    title: `MX records of ${domain}`,
    excerpt: hasMx ? `MX: ${mxHosts.join(", ")}` : "No MX records",
    retrievedAt,
  };
  return { documents: [document], output };
}

async function lookupMx(domain: string, ctx: ToolContext): Promise<MxRecord[]> {
  try {
    return await (ctx.dns ?? systemDnsResolver).resolveMx(domain);
  } catch (e) {
    if (isAppError(e) || ctx.signal?.aborted) throw e;
    // A failed look-up is not evidence that the domain takes no mail, so no verdict is given.
    const code = (e as { code?: string }).code ?? "error";
    throw appError("tool_failed", `The MX look-up for ${domain} failed (${code}).`);
  }
}

function personName(input: EmailEnrichmentInput): PersonName {
  const first = input.firstName ? foldNamePart(input.firstName.split(/\s+/)[0]) : "";
  const last = input.lastName ? input.lastName.split(/\s+/).map(foldNamePart).join("") : "";
  const fromFull = splitName(input.name);
  const name = first ? { first, last: last || fromFull?.last } : fromFull;
  if (!name?.first) throw appError("invalid_value", `"${input.name}" does not contain a usable name.`);
  return name;
}

function hunterDocuments(f: HunterFinding, domain: string, retrievedAt: string): ToolDocument[] {
  if (f.sources.length === 0) {
    return [
      {
        url: `https://hunter.io/search/${encodeURIComponent(domain)}`,
        title: `Hunter.io: ${f.email}`,
        excerpt: `Hunter.io email finder result for ${domain}`,
        retrievedAt,
      },
    ];
  }
  return f.sources.map((s) => ({
    url: s.uri,
    title: s.domain || s.uri,
    excerpt: `${f.email} appeared on this page${s.extractedOn ? ` (seen ${s.extractedOn})` : ""}.`,
    retrievedAt,
  }));
}

export const emailEnrichmentTool = {
  name: "email-enrichment",
  description:
    "Find a person's work email address from their name and company domain. Returns the address, " +
    "how it was obtained (provider, pattern_mx_valid guess, or no_mx) and a confidence.",
  inputSchema,
  isConfigured: () => ({ ok: true }),
  execute,
} satisfies CellTool<EmailEnrichmentInput>;
