// The outbound network guard: every user-influenced URL goes through here.
export { safeFetch, parseContentType, type SafeFetchOptions, type SafeFetchResponse } from "./safe-fetch.ts";
export {
  assertPublicUrl,
  vetUrl,
  parseHttpUrl,
  systemLookup,
  type AllowedTarget,
  type GuardOptions,
  type HostLookup,
  type ResolvedAddress,
  type VettedTarget,
} from "./guard.ts";
export { blockedReason, isPublicAddress, isIpLiteral, matchesAddress } from "./ip-policy.ts";
