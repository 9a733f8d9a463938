// A website's domain from what people write for it: "https://www.Acme.com/about", "acme.com",
// "mailto:ceo@acme.com" all name acme.com. Shared by the email tools (which also refuse
// addresses) and by finds (whose candidates are keyed by it). IDNs become punycode.

const HOST_NAME = /^(?=.{1,253}$)([a-z0-9-]{1,63}\.)+[a-z0-9-]{2,63}$/;
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/** The domain (or IPv4 address) a URL, a domain or an email address names; null when none. */
export function siteDomain(input: string): string | null {
  const raw = input
    .trim()
    .replace(/^mailto:/i, "")
    .replace(/^[^/@]*@/, "");
  if (!raw || /\s/.test(raw)) return null;
  let host: string;
  try {
    host = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`).hostname;
  } catch {
    return null;
  }
  host = host.replace(/\.$/, "").replace(/^www\d*\./, "");
  return HOST_NAME.test(host) || IPV4.test(host) ? host : null;
}

export const isIpv4 = (host: string) => IPV4.test(host);
