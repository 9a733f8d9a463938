import { describe, expect, it } from "vitest";
import {
  describeCadence,
  describeRows,
  draftToBody,
  emptyDraft,
  formatRunTime,
} from "../../components/schedules/schedule-form.ts";

const draft = (patch = {}) => ({ ...emptyDraft("Europe/Berlin"), name: "Nightly", ...patch });

describe("draftToBody", () => {
  it("turns every N hours or days into seconds", () => {
    expect(draftToBody(draft({ everyCount: "6", everyUnit: "hours" }))).toEqual({
      body: {
        name: "Nightly",
        behavior: "refresh",
        every: 21_600,
        columnIds: null,
        rows: { all: true },
        maxCredits: null,
        materiality: "type",
        enabled: true,
      },
    });
    expect(draftToBody(draft({ everyCount: "2", everyUnit: "days" }))).toMatchObject({ body: { every: 172_800 } });
  });

  it("keeps a cron with its time zone, its spaces tidied", () => {
    expect(draftToBody(draft({ mode: "cron", cron: " 0  6 * * 1 " }))).toMatchObject({
      body: { cron: "0 6 * * 1", timezone: "Europe/Berlin" },
    });
    expect(draftToBody(draft({ mode: "cron", cron: "0 6 * *" }))).toEqual({
      error: "Cron: five fields, e.g. 0 6 * * 1 (Mondays at 06:00).",
    });
  });

  it("sends the chosen columns, rows and credit cap", () => {
    const out = draftToBody(
      draft({
        columnIds: ["scol_1"],
        rows: "belowConfidence",
        belowConfidence: "70",
        maxCredits: "500",
        materiality: "model",
        enabled: false,
      }),
    );
    expect(out).toMatchObject({
      body: {
        columnIds: ["scol_1"],
        rows: { belowConfidence: 0.7 },
        maxCredits: 500,
        materiality: "model",
        enabled: false,
      },
    });
    expect(draftToBody(draft({ rows: "olderThanDays", olderThanDays: "30" }))).toMatchObject({
      body: { rows: { olderThanDays: 30 } },
    });
  });

  it("names the field that is wrong", () => {
    expect(draftToBody(draft({ name: "  " }))).toEqual({ error: "Name: give the schedule a name." });
    expect(draftToBody(draft({ everyCount: "0" }))).toEqual({ error: "Every: between 1 hour and 30 days." });
    expect(draftToBody(draft({ everyCount: "31", everyUnit: "days" }))).toEqual({
      error: "Every: between 1 hour and 30 days.",
    });
    expect(draftToBody(draft({ everyCount: "1.5" }))).toEqual({ error: "Every: between 1 hour and 30 days." });
    expect(draftToBody(draft({ rows: "olderThanDays", olderThanDays: "0" }))).toEqual({
      error: "Older than: 1 to 3,650 days.",
    });
    expect(draftToBody(draft({ rows: "belowConfidence", belowConfidence: "120" }))).toEqual({
      error: "Below confidence: above 0 up to 100%.",
    });
    expect(draftToBody(draft({ maxCredits: "-3" }))).toEqual({
      error: "Max credits: a whole number of credits, or empty for the default.",
    });
  });
});

describe("a schedule in words", () => {
  it("says its cadence", () => {
    expect(describeCadence({ cron: null, every: 3_600, timezone: "UTC" })).toBe("Every hour");
    expect(describeCadence({ cron: null, every: 21_600, timezone: "UTC" })).toBe("Every 6 hours");
    expect(describeCadence({ cron: null, every: 86_400, timezone: "UTC" })).toBe("Every day");
    expect(describeCadence({ cron: null, every: 7 * 86_400, timezone: "UTC" })).toBe("Every 7 days");
    expect(describeCadence({ cron: "0 6 * * 1", every: null, timezone: "Europe/Berlin" })).toBe(
      "Cron 0 6 * * 1 (Europe/Berlin)",
    );
  });

  it("says its rows", () => {
    expect(describeRows({ all: true })).toBe("all rows");
    expect(describeRows({ olderThanDays: 30 })).toBe("cells older than 30 days");
    expect(describeRows({ belowConfidence: 0.7 })).toBe("cells below 70% confidence");
  });

  it("shows a run time in the viewer's zone", () => {
    const at = "2026-12-14T05:00:00.000Z";
    expect(formatRunTime(at, "Europe/Berlin", "en-GB")).toMatch(/06:00/);
    expect(formatRunTime(at, "America/New_York", "en-US")).toMatch(/12:00\sAM/);
    expect(formatRunTime(at, "UTC", "en-GB")).toMatch(/05:00 UTC/);
  });
});
