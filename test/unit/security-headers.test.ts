import { expect, it } from "vitest";
import { securityHeaders } from "../../lib/http/security-headers.ts";

it("adds HSTS only over HTTPS, and forbids framing either way", () => {
  expect(securityHeaders(true)["strict-transport-security"]).toMatch(/^max-age=\d+/);
  expect(securityHeaders(false)).not.toHaveProperty("strict-transport-security");
  for (const https of [true, false]) {
    expect(securityHeaders(https)["content-security-policy"]).toMatch(/frame-ancestors 'none'/);
    expect(securityHeaders(https)["x-frame-options"]).toBe("DENY");
  }
});
