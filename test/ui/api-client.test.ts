import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { api, ApiError, RATE_LIMIT_RETRIES, RATE_LIMITED_MESSAGE, retryWaitMs } from "../../components/data/api.ts";

// The web app's API client against a real local server that answers 429 a number of times:
// it waits Retry-After and tries again a bounded number of times, then shows a clear message.

let server: http.Server;
let url: string;
let refusals = 0;
let hits = 0;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits++;
    if (refusals > 0) {
      refusals--;
      res.writeHead(429, { "content-type": "application/json", "retry-after": "1" });
      return res.end(
        JSON.stringify({ error: { code: "rate_limited", message: "Too many requests for this API key." } }),
      );
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ ok: true, method: req.method }));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/bases`;
});
afterAll(() => new Promise((r) => server.close(r)));
beforeEach(() => {
  hits = 0;
});

it("waits Retry-After and sends the request again", async () => {
  refusals = 2;
  const started = Date.now();
  expect(await api(url, { body: { name: "x" } })).toEqual({ ok: true, method: "POST" });
  expect(hits).toBe(3);
  expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
}, 10_000);

it("gives up after a bounded number of retries with a clear message", async () => {
  refusals = 10;
  const err = await api(url).catch((e) => e);
  expect(err).toBeInstanceOf(ApiError);
  expect(err).toMatchObject({ status: 429, code: "rate_limited", message: RATE_LIMITED_MESSAGE });
  expect(hits).toBe(RATE_LIMIT_RETRIES + 1);
  refusals = 0;
}, 15_000);

it("does not wait longer than ten seconds, nor retry other errors", () => {
  const res = (status: number, retryAfter: string | null) => ({ status, headers: { get: () => retryAfter } });
  expect(retryWaitMs(res(429, "2"), 0)).toBe(2_000);
  expect(retryWaitMs(res(429, "3600"), 0)).toBeNull();
  expect(retryWaitMs(res(429, null), 1)).toBe(2_000);
  expect(retryWaitMs(res(429, "1"), RATE_LIMIT_RETRIES)).toBeNull();
  expect(retryWaitMs(res(503, "1"), 0)).toBeNull();
});
