import { describe, expect, it } from "vitest";
import {
  asChangedFilter,
  changedMarkSince,
  changedRecently,
  dateSince,
  joinChanged,
  presetSince,
  RECENT_CHANGE_MS,
  splitChanged,
} from "../../components/grid/query/changed-since.ts";
import { conditionsOf, type FilterTree } from "../../components/grid/query/query-state.ts";

const NOW = Date.parse("2026-12-10T12:34:56.789Z");

describe("presets", () => {
  it("start 24 hours, 7 and 30 days back, to the minute", () => {
    expect(presetSince("24h", NOW)).toBe("2026-12-09T12:34:00.000Z");
    expect(presetSince("7d", NOW)).toBe("2026-12-03T12:34:00.000Z");
    expect(presetSince("30d", NOW)).toBe("2026-11-10T12:34:00.000Z");
  });

  it("read a custom day from its start in the local zone", () => {
    const since = dateSince("2026-11-02");
    expect(since).not.toBeNull();
    const d = new Date(since!);
    expect([d.getFullYear(), d.getMonth(), d.getDate(), d.getHours(), d.getMinutes()]).toEqual([2026, 10, 2, 0, 0]);
    expect(dateSince("")).toBeNull();
    expect(dateSince("2026-13")).toBeNull();
  });
});

describe("the quick filter beside the bar's conditions", () => {
  const since = "2026-12-09T12:34:00.000Z";
  const one: FilterTree = { column: "Summary", changedSince: since };
  const any: FilterTree = { or: [one, { column: "Size", changedSince: since }] };
  const company: FilterTree = { column: "Company", op: "contains", value: "Acme" };

  it("recognises one column or an or of them with one time", () => {
    expect(asChangedFilter(one)).toEqual({ since, columns: ["Summary"] });
    expect(asChangedFilter(any)).toEqual({ since, columns: ["Summary", "Size"] });
    expect(asChangedFilter({ or: [one, company] })).toBeNull();
    expect(asChangedFilter({ or: [one, { column: "Size", changedSince: "2026-01-01" }] })).toBeNull();
    expect(asChangedFilter(company)).toBeNull();
  });

  it("splits it off, so the rest stays a flat list of conditions, and joins it back", () => {
    const filter: FilterTree = { and: [company, any] };
    const { rest, changed } = splitChanged(filter);
    expect(rest).toEqual(company);
    expect(conditionsOf(rest)).toEqual([company]);
    expect(changed).toEqual({ since, columns: ["Summary", "Size"] });
    expect(joinChanged(rest, changed)).toEqual(filter);
    expect(splitChanged(one)).toEqual({ rest: null, changed: { since, columns: ["Summary"] } });
    expect(joinChanged(null, { since, columns: ["Summary"] })).toEqual(one);
    expect(splitChanged(company)).toEqual({ rest: company, changed: null });
    expect(joinChanged(company, null)).toEqual(company);
    expect(splitChanged(null)).toEqual({ rest: null, changed: null });
  });

  it("keeps an and of several conditions flat when it joins", () => {
    const two: FilterTree = { and: [company, { column: "Size", op: "gt", value: 3 }] };
    const joined = joinChanged(two, { since, columns: ["Summary"] });
    expect(joined).toEqual({ and: [company, { column: "Size", op: "gt", value: 3 }, one] });
    expect(splitChanged(joined).rest).toEqual(two);
  });
});

describe("the grid's changed marker", () => {
  it("looks back 24 hours, or to the quick filter's time", () => {
    expect(changedMarkSince(null, NOW)).toBe(Math.floor((NOW - RECENT_CHANGE_MS) / 60_000) * 60_000);
    const since = "2026-12-01T00:00:00.000Z";
    expect(changedMarkSince({ column: "Summary", changedSince: since }, NOW)).toBe(Date.parse(since));
  });

  it("marks a cell whose value changed at or after that time", () => {
    const since = Date.parse("2026-12-09T00:00:00Z");
    expect(changedRecently({ changedAt: "2026-12-09T00:00:00.000Z" }, since)).toBe(true);
    expect(changedRecently({ changedAt: "2026-12-08T23:59:59.000Z" }, since)).toBe(false);
    expect(changedRecently({}, since)).toBe(false);
    expect(changedRecently(undefined, since)).toBe(false);
  });
});
