import { appError } from "../../errors.ts";
import { isIpv4, siteDomain } from "../../site-domain.ts";

// Company domain handling: accept a domain or any website URL, reduce it to the mail domain,
// and refuse throwaway-mail providers, whose addresses never belong to a company.

// The list (2.4 MB of JSON) loads with the first company's domain, not with the server.
let disposable: Promise<Set<string>> | undefined;
const disposableDomains = () =>
  (disposable ??= import("disposable-email-domains/index.json", { with: { type: "json" } }).then(
    (m) => new Set(m.default as string[]),
    (e) => {
      // A load that failed is tried again by the next call, not remembered.
      disposable = undefined;
      throw e;
    },
  ));

/** "https://www.Acme.com/about" → "acme.com"; an IP address is no company's mail domain. */
export function normalizeDomain(input: string): string {
  const host = siteDomain(input);
  if (!host || isIpv4(host)) throw appError("invalid_value", `"${input}" is not a domain or website.`);
  return host;
}

/** True for known disposable-mail domains and their subdomains. */
export async function isDisposableDomain(domain: string): Promise<boolean> {
  const listed = await disposableDomains();
  const labels = domain.toLowerCase().split(".");
  for (let i = 0; i < labels.length - 1; i++) {
    if (listed.has(labels.slice(i).join("."))) return true;
  }
  return false;
}
