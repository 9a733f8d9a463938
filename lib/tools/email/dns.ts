import { Resolver } from "node:dns/promises";
import { appError } from "../../errors.ts";
import type { DnsResolver, MxRecord } from "../types.ts";

// The production DnsResolver. "No such domain" and "no MX records" both answer [], because
// for mail they mean the same thing; resolver failures are errors, not a verdict.

const NO_ANSWER = new Set(["ENODATA", "ENOTFOUND", "NXDOMAIN"]);

export function createSystemDnsResolver(timeoutMs = 5_000): DnsResolver {
  const resolver = new Resolver({ timeout: timeoutMs, tries: 2 });
  return {
    async resolveMx(domain: string): Promise<MxRecord[]> {
      try {
        return await resolver.resolveMx(domain);
      } catch (e) {
        const code = (e as { code?: string }).code ?? "";
        if (NO_ANSWER.has(code)) return [];
        throw appError("tool_failed", `The MX look-up for ${domain} failed (${code || "error"}).`);
      }
    },
  };
}

export const systemDnsResolver: DnsResolver = createSystemDnsResolver();

/** Mail exchangers that can receive mail; a lone "." is RFC 7505's "this domain takes no mail". */
export function usableMx(records: MxRecord[]): MxRecord[] {
  return records.filter((r) => r.exchange && r.exchange !== ".").sort((a, b) => a.priority - b.priority);
}
