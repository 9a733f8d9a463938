import { describe, expect, it } from "vitest";
import { fitResult } from "../../lib/mcp/call.ts";

// An MCP tool's result is cut to fit 50,000 characters; the tools themselves: test/mcp/.

describe("fitting a result", () => {
  it("cuts long strings first, then long lists, to stay under 50,000 characters", async () => {
    const small = { a: "x" };
    expect(fitResult(small)).toEqual({ value: small, truncated: false });
    const strings = fitResult({ rows: Array.from({ length: 20 }, () => "y".repeat(10_000)) });
    expect(strings.truncated).toBe(true);
    expect(strings.value.rows).toHaveLength(20);
    expect(JSON.stringify(strings.value).length).toBeLessThanOrEqual(50_000);
    const lists = fitResult({
      bases: Array.from({ length: 5_000 }, (_, i) => ({ baseId: `b${i}`, name: `Base ${i}` })),
    });
    expect(lists.truncated).toBe(true);
    expect(lists.value.bases.length).toBeGreaterThan(100);
    expect(lists.value.bases[0]).toEqual({ baseId: "b0", name: "Base 0" });
    expect(JSON.stringify(lists.value).length).toBeLessThanOrEqual(50_000);
  });
});
