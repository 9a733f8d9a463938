import { describe, expect, it } from "vitest";
import {
  assertTransition,
  canTransition,
  CELL_STATUSES,
  CELL_TRANSITIONS,
  fromStatusSql,
  IllegalCellTransition,
  type CellStatus,
} from "../../lib/domain/cells/index.ts";

// The cell state machine: the table is the whole truth, and everything not in it is refused.

const ALLOWED: Record<string, (CellStatus | null)[]> = {
  pending: [null, "pending", "running", "done", "error", "cancelled", "skipped", "not_found"],
  running: ["pending"],
  done: [null, "pending", "running", "done", "error", "cancelled", "skipped", "not_found"],
  error: ["running", "pending"],
  cancelled: ["pending", "running"],
  // Only a claimed cell is judged by its run condition.
  skipped: ["running"],
  // Only an attempt's outcome: every provider it asked had no data.
  not_found: ["running"],
};

describe("cell transitions", () => {
  const pairs = [null, ...CELL_STATUSES].flatMap((from) => CELL_STATUSES.map((to) => [from, to] as const));

  it.each(pairs)("%s → %s is allowed exactly when the table says so", (from, to) => {
    expect(canTransition(from, to)).toBe(ALLOWED[to].includes(from));
  });

  it("refuses an illegal transition with an error", () => {
    expect(() => assertTransition("done", "running")).toThrow(IllegalCellTransition);
    expect(() => assertTransition(null, "running")).toThrow(/cannot go from \(none\) to running/);
    expect(() => assertTransition("pending", "running")).not.toThrow();
  });

  it("builds each UPDATE's status condition from the table", () => {
    expect(fromStatusSql("claim", "c")).toBe("c.status IN ('pending')");
    expect(fromStatusSql("complete")).toBe("cells.status IN ('running')");
    expect(fromStatusSql("queue")).toBe(
      "cells.status IN ('pending', 'running', 'done', 'error', 'cancelled', 'skipped', 'not_found')",
    );
    expect(fromStatusSql("skip")).toBe("cells.status IN ('running')");
    expect(fromStatusSql("cancel")).toBe("cells.status IN ('pending', 'running')");
    for (const t of Object.keys(CELL_TRANSITIONS) as (keyof typeof CELL_TRANSITIONS)[]) {
      expect(fromStatusSql(t)).toMatch(/^cells\.status IN \('[a-z_]+'(, '[a-z_]+')*\)$/);
    }
  });
});
