import ipaddr from "ipaddr.js";

// Decides whether an address may be the target of a user-influenced request. The policy is an
// allow-list (public unicast only) rather than a block-list, so ranges we forgot stay closed.

type IPv4 = ipaddr.IPv4;
type IPv6 = ipaddr.IPv6;

/** Returns why the address is not a public unicast address, or null when it is. */
export function blockedReason(address: string): string | null {
  let parsed: IPv4 | IPv6;
  try {
    parsed = ipaddr.parse(stripBrackets(address));
  } catch {
    return "not an IP address";
  }
  return parsed.kind() === "ipv4" ? ipv4Reason(parsed as IPv4) : ipv6Reason(parsed as IPv6);
}

export const isPublicAddress = (address: string): boolean => blockedReason(address) === null;

/** True for literal IPv4 or IPv6 addresses (with or without brackets); hostnames are false. */
export function isIpLiteral(host: string): boolean {
  return ipaddr.isValid(stripBrackets(host));
}

/** True when address equals an IP or lies inside a CIDR (same family; mapped IPv4 unwrapped). */
export function matchesAddress(address: string, ipOrCidr: string): boolean {
  try {
    const ip = ipaddr.process(stripBrackets(address));
    const [net, bits] = ipOrCidr.includes("/")
      ? ipaddr.parseCIDR(ipOrCidr)
      : [ipaddr.process(ipOrCidr), ipOrCidr.includes(":") ? 128 : 32];
    return ip.kind() === net.kind() && ip.match(net, bits);
  } catch {
    return false;
  }
}

function stripBrackets(host: string): string {
  return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
}

function ipv4Reason(ip: IPv4): string | null {
  const range = ip.range();
  // ipaddr.js names every special-purpose block (private, loopback, linkLocal, carrierGradeNat,
  // multicast, broadcast, reserved incl. 240/4, unspecified incl. 0/8, benchmarking ...).
  return range === "unicast" ? null : `IPv4 ${range} address`;
}

const GLOBAL_UNICAST = ipaddr.parseCIDR("2000::/3") as [IPv6, number];
const NAT64_WELL_KNOWN = ipaddr.parseCIDR("64:ff9b::/96") as [IPv6, number];

function ipv6Reason(ip: IPv6): string | null {
  const range = ip.range();
  // Addresses that carry an IPv4 address inside: judge the embedded one, because that is where
  // a translator or tunnel would deliver the packets.
  if (range === "ipv4Mapped" || range === "rfc6145") return embeddedReason(lowIPv4(ip), range);
  if (ip.match(NAT64_WELL_KNOWN)) return embeddedReason(lowIPv4(ip), "NAT64");
  if (range === "6to4") {
    return embeddedReason(new ipaddr.IPv4(bytesOf(ip.parts[1], ip.parts[2])), "6to4");
  }
  // Teredo hides the client address (obfuscated) and a relay; no legitimate scrape needs it.
  if (range === "teredo") return "IPv6 Teredo address";
  if (range !== "unicast") return `IPv6 ${range} address`;
  // ipaddr.js calls the deprecated IPv4-compatible block (::a.b.c.d) unicast; only 2000::/3 is
  // globally routed today.
  if (!ip.match(GLOBAL_UNICAST)) return "IPv6 address outside global unicast";
  return null;
}

function embeddedReason(v4: IPv4, via: string): string | null {
  const reason = ipv4Reason(v4);
  return reason ? `${reason} embedded in ${via}` : null;
}

function lowIPv4(ip: IPv6): IPv4 {
  return new ipaddr.IPv4(bytesOf(ip.parts[6], ip.parts[7]));
}

function bytesOf(hi: number, lo: number): number[] {
  return [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff];
}
