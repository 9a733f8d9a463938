import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { TOOLS, type ToolAnnotations } from "../../lib/mcp/tools.ts";

// Every MCP tool's annotations, pinned with the reason they are true to what the tool does. A
// client may call a tool marked idempotent again after a lost answer, or without asking the
// user when it is marked non-destructive: a wrong hint costs credits or data. A new tool fails
// here until its hints are decided.

const read = { readOnlyHint: true, openWorldHint: false };
type Expected = { hints: ToolAnnotations; reason: string };

const EXPECTED: Record<string, Expected> = {
  list_bases: { hints: read, reason: "lists bases" },
  get_base_structure: { hints: read, reason: "reads columns" },
  query_rows: { hints: read, reason: "reads rows" },
  get_row: { hints: read, reason: "reads one row" },
  estimate_run: { hints: read, reason: "counts cells and credits, queues nothing" },
  column_quality: { hints: read, reason: "reads the review history" },
  column_steps: { hints: read, reason: "reads the step traces of a column's cells" },
  preview_http_column: {
    hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    reason: "calls the column's provider for one row (open world); stores nothing, so calling it again is safe",
  },
  get_evaluation: { hints: read, reason: "reads an evaluation" },
  get_run: { hints: read, reason: "reads a run" },
  get_find: { hints: read, reason: "reads a find's progress" },
  find_candidates: { hints: read, reason: "reads what a find came across, with its verdicts" },
  list_members: { hints: read, reason: "lists members" },
  list_invitations: { hints: read, reason: "lists invitations, never their links" },
  read_audit_log: { hints: read, reason: "reads audit entries" },
  set_member_role: {
    hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    reason: "changes what a person may do; the same role again changes nothing",
  },
  remove_member: {
    hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    reason: "ends a member's access and stops their keys; a repeat finds them gone",
  },
  create_invitation: {
    hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    reason: "makes another link each call, changing no one's access until it is accepted",
  },
  list_secrets: { hints: read, reason: "lists names, dates and last four characters, never values" },
  create_secret: {
    hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    reason: "stores a secret; with replace it overwrites a value that cannot be read back",
  },
  delete_secret: {
    hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    reason: "deletes a value for good; a repeat finds it gone",
  },
  revoke_invitation: {
    hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    reason: "stops a link for good; a revoked invitation stays revoked",
  },
  add_rows: {
    hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    reason: "adds rows beside the others (again on a repeat), and their AI cells ask the model and may search the web",
  },
  update_rows: {
    hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    reason: 'overwrites cells; writing "" to an AI cell runs it again (charged again) on every call',
  },
  delete_rows: {
    hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    reason: "deletes rows; a repeat finds them gone and changes nothing",
  },
  create_base: {
    hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    reason: "creates a new base each call, with no rows, so no model is asked",
  },
  manage_column: {
    hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    reason:
      "modify and delete change or drop a column and its values; create adds another each call; new or changed AI columns do not run until asked",
  },
  run_cells: {
    hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    reason: "regenerates cells over their values, charged on every call, asking the model and the web",
  },
  review_cells: {
    hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    reason: "edit overwrites a cell's value; rerun asks the model (and the web) again and charges again",
  },
  evaluate_column: {
    hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    reason: "never changes cells, but starts another charged evaluation on every call, asking the model",
  },
  find_rows: {
    hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    reason: "starts another charged find on every call, searching and reading the web; adds rows beside the others",
  },
  extend_find: {
    hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    reason: "looks for more rows on every call, charged, searching and reading the web; changes no row it has",
  },
  list_schedules: { hints: read, reason: "lists a base's schedules" },
  create_schedule: {
    hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    reason: "makes another schedule each call, which later asks the model and the web on its own, charged",
  },
  trigger_schedule: {
    hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    reason:
      "regenerates the schedule's cells over their values now, charged on every call, asking the model and the web",
  },
  cancel_run: {
    hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    reason: "drops the run's pending and in-flight cells; a cancelled run stays cancelled",
  },
  configure_base: {
    hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    reason: "the assistant may modify or delete columns, and each turn asks the model",
  },
};

describe("MCP tool annotations", () => {
  it("pins every tool, and only the tools there are", () => {
    expect(TOOLS.map((t) => t.name).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  for (const [name, { hints, reason }] of Object.entries(EXPECTED)) {
    it(`${name}: ${reason}`, () => {
      const tool = TOOLS.find((t) => t.name === name)!;
      expect(tool.annotations).toEqual(hints);
    });
  }

  it("README's tool table says the same", () => {
    const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
    const yesNo = (v: boolean | undefined) => (v === undefined ? "" : v ? "yes" : "no");
    for (const tool of TOOLS) {
      const line = readme.split("\n").find((l) => l.startsWith(`| \`${tool.name}\` |`));
      const cells = line
        ?.split("|")
        .slice(-5, -1)
        .map((c) => c.trim());
      const a = tool.annotations;
      const hints = a.readOnlyHint
        ? ["yes", "", "", yesNo(a.openWorldHint)]
        : ["no", yesNo(a.destructiveHint), yesNo(a.idempotentHint), yesNo(a.openWorldHint)];
      expect(cells, tool.name).toEqual(hints);
    }
  });

  it("a read-only tool touches nothing outside; every other one says whether it is destructive and idempotent", () => {
    for (const tool of TOOLS) {
      if (tool.annotations.readOnlyHint) expect(tool.annotations, tool.name).toEqual(read);
      else
        expect(
          typeof tool.annotations.destructiveHint === "boolean" && typeof tool.annotations.idempotentHint === "boolean",
          tool.name,
        ).toBe(true);
    }
  });
});
