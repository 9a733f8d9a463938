import { createHmac, randomBytes } from "node:crypto";

// Standard Webhooks signing (https://www.standardwebhooks.com): the signed content is
// `${id}.${timestamp}.${body}`, keyed with the secret's bytes (the base64 after "whsec_").

const PREFIX = "whsec_";

/** A new endpoint secret: 32 random bytes (the spec allows 24 to 64), base64, prefixed. */
export function generateSecret(): string {
  return PREFIX + randomBytes(32).toString("base64");
}

export function secretKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, "base64");
}

/** One `v1,<base64 HMAC-SHA256>` signature. */
export function sign(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac("sha256", secretKey(secret)).update(`${id}.${timestampSeconds}.${body}`).digest("base64");
  return `v1,${mac}`;
}

/**
 * The webhook-signature header: one signature per live secret, space-separated, so a receiver
 * that still holds the previous secret keeps verifying during a rotation's grace period.
 */
export function signatureHeader(
  secrets: readonly string[],
  id: string,
  timestampSeconds: number,
  body: string,
): string {
  return secrets.map((s) => sign(s, id, timestampSeconds, body)).join(" ");
}

export interface EndpointSecrets {
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
}

/** The secrets that sign right now: the current one, plus the previous one until its grace ends. */
export function liveSecrets(e: EndpointSecrets, now = new Date()): string[] {
  const previousLive = e.previousSecret && e.previousSecretExpiresAt && e.previousSecretExpiresAt > now;
  return previousLive ? [e.secret, e.previousSecret!] : [e.secret];
}

export function signedHeaders(
  secrets: readonly string[],
  id: string,
  body: string,
  now = new Date(),
): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    "content-type": "application/json",
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": signatureHeader(secrets, id, timestamp, body),
  };
}
