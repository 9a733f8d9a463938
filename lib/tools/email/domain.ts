import { appError } from "../../errors.ts";

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

/** "https://www.Acme.com/about" → "acme.com"; IDNs become punycode. */
export function normalizeDomain(input: string): string {
  const raw = input
    .trim()
    .replace(/^mailto:/i, "")
    .replace(/^.*@/, "");
  let host: string;
  try {
    host = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`).hostname;
  } catch {
    throw appError("invalid_value", `"${input}" is not a domain or website.`);
  }
  host = host.replace(/\.$/, "").replace(/^www\d*\./, "");
  if (!/^(?=.{1,253}$)([a-z0-9-]{1,63}\.)+[a-z0-9-]{2,63}$/.test(host) || /^[\d.]+$/.test(host)) {
    throw appError("invalid_value", `"${input}" is not a domain or website.`);
  }
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
