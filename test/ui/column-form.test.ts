import { describe, expect, it } from "vitest";
import { formFor, withMode } from "../../components/grid/dialogs/column-form.ts";
import { configText } from "../../components/grid/dialogs/fill-templates.ts";
import type { ColumnView } from "../../components/data/types.ts";

const steps = (text: string) => (JSON.parse(text) as { steps?: unknown[] }).steps;

describe("the column editor's fill mode", () => {
  it("offers the waterfall's steps, not an HTTP request, when Waterfall is picked", () => {
    const fresh = formFor(null);
    const waterfall = withMode(fresh, "waterfall", null);
    expect(waterfall.mode).toBe("waterfall");
    expect(steps(waterfall.config)?.length).toBeGreaterThan(0);
    // Through another mode and back, and from Waterfall to HTTP.
    const http = withMode(withMode(waterfall, "ai", null), "http", null);
    expect(JSON.parse(http.config)).toHaveProperty("request");
  });

  it("keeps settings the user wrote, and a column's own settings", () => {
    const edited = { ...withMode(formFor(null), "http", null), config: '{"request":{"url":"https://x.example"}}' };
    expect(withMode(edited, "waterfall", null).config).toBe(edited.config);
    const column = {
      name: "Email",
      type: "short-text",
      tools: [],
      inputColumnIds: [],
      columnOptions: {},
      fill: { kind: "waterfall", steps: [{ kind: "formula", expression: "Name" }] },
    } as unknown as ColumnView;
    const form = formFor(column);
    expect(form.config).toBe(configText(column.fill, "waterfall"));
    expect(withMode(withMode(form, "manual", column), "waterfall", column).config).toBe(form.config);
  });
});
