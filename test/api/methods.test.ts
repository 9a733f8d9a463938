import path from "node:path";
import { readdirSync, statSync } from "node:fs";
import { describe, expect, it } from "vitest";

// Every route answers every method in JSON: the methods it does not serve come from
// otherMethods(), so Next.js never sends its empty 405.

const appApi = path.resolve(import.meta.dirname, "../../app/api");
const routeFiles: string[] = [];
(function walk(dir: string) {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) walk(full);
    else if (name === "route.ts") routeFiles.push(full);
  }
})(appApi);

describe("route modules", () => {
  it("finds the API routes", () => {
    expect(routeFiles.length).toBeGreaterThan(10);
  });

  for (const file of routeFiles) {
    it(`${path.relative(appApi, file)} exports GET, POST, PUT, PATCH and DELETE`, async () => {
      const mod = (await import(file)) as Record<string, unknown>;
      for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"])
        expect(typeof mod[method], method).toBe("function");
    });
  }
});
