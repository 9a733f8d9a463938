import path from "node:path";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { appError, isAppError } from "../../lib/errors.ts";
import { errorResponse } from "../../lib/http/respond.ts";

// The built server loads lib/errors.ts once per bundle (the runtime's, each route's). An AppError
// from another copy of the module must still be answered with its own code and status, never as
// an unknown error (a 500): isAppError knows it by its brand, not by its class.

const root = path.resolve(import.meta.dirname, "../..");

/** A second, separate instance of the errors module, as another bundle holds it. */
const ANOTHER_COPY = "../../lib/errors.ts?another-bundle";
const otherBundle = () => import(ANOTHER_COPY) as Promise<typeof import("../../lib/errors.ts")>;

describe("isAppError", () => {
  it("knows an AppError from another copy of the module, which instanceof does not", async () => {
    const other = await otherBundle();
    const foreign = other.appError("rate_limited", "Slow down.", { retryAfterSeconds: 2, limit: 5, burst: 10 });
    expect(other.AppError).not.toBe((await import("../../lib/errors.ts")).AppError);
    expect(foreign instanceof (await import("../../lib/errors.ts")).AppError).toBe(false);
    expect(isAppError(foreign)).toBe(true);
    expect(isAppError(appError("not_found"))).toBe(true);
  });

  it("answers another copy's rate_limited with 429, Retry-After and the RateLimit fields", async () => {
    const other = await otherBundle();
    const res = errorResponse(
      other.appError("rate_limited", "Slow down.", { retryAfterSeconds: 2, limit: 5, burst: 10 }),
    );
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("2");
    expect(res.headers.get("ratelimit-policy")).toMatch(/q=10/);
    expect(res.headers.get("ratelimit")).toMatch(/r=0/);
    expect((await res.json()).error).toEqual({
      code: "rate_limited",
      message: "Slow down.",
      details: { retryAfterSeconds: 2, limit: 5, burst: 10 },
    });
  });

  it("does not take a look-alike for one: a plain object, an Error with a code, an unknown code", () => {
    expect(isAppError({ code: "not_found", status: 404, message: "x" })).toBe(false);
    expect(isAppError(Object.assign(new Error("x"), { code: "not_found" }))).toBe(false);
    expect(isAppError(Object.assign(appError("not_found"), { code: "no_such_code" }))).toBe(false);
    expect(isAppError(null)).toBe(false);
    expect(isAppError("not_found")).toBe(false);
  });

  it("is what lib/ uses: no module tests an error with instanceof AppError", () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const p = path.join(dir, name);
        if (statSync(p).isDirectory()) walk(p);
        else if (/\.tsx?$/.test(name) && /instanceof\s+AppError\b/.test(readFileSync(p, "utf8")))
          offenders.push(path.relative(root, p));
      }
    };
    for (const dir of ["lib", "app", "components"]) walk(path.join(root, dir));
    expect(offenders).toEqual([]);
  });
});
