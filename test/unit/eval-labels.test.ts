import { describe, expect, it } from "vitest";
import { MAX_LABELS, planReview, readLabels, type LabelledCell } from "../../lib/cli/eval-labels.ts";
import { progressBar, progressLine, summaryLines, type Evaluation } from "../../lib/cli/eval-report.ts";
import { EXIT, runCli } from "../../lib/cli/run.ts";

// `eval`'s pure parts: reading a golden set, deciding accept or edit, showing the result; and
// that the runner opens no database for it.

describe("readLabels", () => {
  it("picks the key and label columns by name, whatever their case, order or delimiter", () => {
    const file = readLabels(
      "\uFEFFindustry;Notes;COMPANY\nSoftware;x;Acme\n;;Globex\nRetail;;\n",
      "Company",
      "Industry",
    );
    expect(file).toEqual({ labels: [{ key: "Acme", value: "Software" }], blank: 2, conflicting: [] });
  });

  it("keeps a label given twice alike, and leaves out a key labelled two ways", () => {
    const file = readLabels(
      "Company,Industry\nAcme,Software\nAcme,Software\nGlobex,Retail\nGlobex,Banking\n",
      "Company",
      "Industry",
    );
    expect(file.labels).toEqual([{ key: "Acme", value: "Software" }]);
    expect(file.conflicting).toEqual(["Globex"]);
  });

  it("says which column is missing and what the header has", () => {
    expect(() => readLabels("Name,Industry\nAcme,Software\n", "Company", "Industry")).toThrow(
      'has no "Company" column to match rows by; its header is "Name", "Industry". Pass --key',
    );
    expect(() => readLabels("Company\nAcme\n", "Company", "Industry")).toThrow('has no "Industry" column (the labels)');
    expect(() => readLabels("", "Company", "Industry")).toThrow("The labels file is empty");
    expect(() => readLabels('Company,Industry\n"Acme,Software\n', "Company", "Industry")).toThrow("not valid CSV");
  });

  it(`takes at most ${MAX_LABELS} labels`, () => {
    const lines = (n: number) => ["Company,Industry", ...Array.from({ length: n }, (_, i) => `C${i},X`)].join("\n");
    expect(readLabels(lines(MAX_LABELS), "Company", "Industry").labels).toHaveLength(MAX_LABELS);
    expect(() => readLabels(lines(MAX_LABELS + 1), "Company", "Industry")).toThrow("more than 10,000 lines");
  });
});

describe("planReview", () => {
  const cell = (rowId: string, value: string, status = "done", verified = false): LabelledCell => ({
    rowId,
    value,
    status,
    verified,
  });
  const caseless = (a: string, b: string) => a.toLowerCase() === b.trim().toLowerCase();

  it("accepts the model's right answers, edits the rest, skips what is already verified, and reports unmatched and ambiguous keys", () => {
    const cells = new Map([
      ["Acme", [cell("r1", "software")]],
      ["Globex", [cell("r2", "Retail")]],
      ["Initech", [cell("r3", "", "error")]],
      ["Umbrella", [cell("r4", "Pharma", "done", true)]],
      ["Hooli", [cell("r5", "Software", "pending")]],
      ["Twin", [cell("r6", "A"), cell("r7", "B")]],
    ]);
    const labels = [
      "Acme:Software",
      "Globex:Banking",
      "Initech:Software",
      "Umbrella:Pharma",
      "Hooli:Software",
      "Twin:A",
      "Nope:X",
    ].map((s) => {
      const [key, value] = s.split(":");
      return { key, value };
    });
    const plan = planReview(labels, cells, "col_1", caseless);
    expect(plan.reviews).toEqual([
      { rowId: "r1", columnId: "col_1", action: "accept" },
      { rowId: "r2", columnId: "col_1", action: "edit", value: "Banking" },
      { rowId: "r3", columnId: "col_1", action: "edit", value: "Software" },
      // Not done yet: only a done cell can be accepted.
      { rowId: "r5", columnId: "col_1", action: "edit", value: "Software" },
    ]);
    expect(plan.alreadyVerified).toEqual(["r4"]);
    expect(plan.unmatched.map((l) => l.key)).toEqual(["Nope"]);
    expect(plan.ambiguous.map((l) => l.key)).toEqual(["Twin"]);
  });
});

describe("the report", () => {
  const evaluation: Evaluation = {
    id: "eval_1",
    columnId: "col_1",
    runId: "run_1",
    status: "done",
    settings: { model: "openai:gpt-5-mini", changed: ["instructions"] },
    counts: { rows: 4, pending: 0, running: 0, done: 4, error: 0, cancelled: 0, correct: 3, incorrect: 1 },
    accuracy: 0.75,
    previousAccuracy: 0.5,
    expectedCalibrationError: 0.125,
    byConfidence: [
      { from: 0.3, to: 0.4, cells: 1, agreement: 0, confidence: 0.35 },
      { from: 0.9, to: 1, cells: 3, agreement: 1, confidence: 0.95 },
    ],
    creditsSpent: 4,
  };

  it("prints the accuracy, the calibration and the buckets", () => {
    expect(summaryLines(evaluation, "Industry")).toEqual([
      'Evaluation eval_1 of "Industry": done, model openai:gpt-5-mini',
      "Accuracy           75.0% (3 of 4 rows right)",
      "Before             50.0% (the column's own answers on the same rows)",
      "Rows               4: 3 right, 1 wrong, 0 failed, 0 cancelled, 0 unfinished",
      "Calibration error  0.13 (expected calibration error: 0 means confidence matches accuracy)",
      "Changed            instructions (compared with the column's settings)",
      "Credits            4",
      "",
      "CONFIDENCE  CELLS  AGREEMENT  MEAN CONFIDENCE",
      "0.3–0.4     1      0.0%       0.35",
      "0.9–1.0     3      100.0%     0.95",
    ]);
  });

  it("draws the progress as a bar on a terminal and as a plain line elsewhere", () => {
    const half = {
      ...evaluation,
      status: "paused" as const,
      counts: { ...evaluation.counts, done: 1, error: 1, pending: 2 },
    };
    expect(progressBar(half)).toBe(`\r[${"#".repeat(15)}${"-".repeat(15)}] 50% 2/4 rows (paused)`);
    expect(progressLine(half)).toBe("2/4 rows (paused)");
  });
});

it("eval opens no database: without an API key it is a usage error before anything else", async () => {
  const err: string[] = [];
  const code = await runCli(
    ["eval", "--base", "b", "--column", "c", "--labels", "l.csv"],
    { DATA_DIR: "/nonexistent/never-opened" },
    { out: () => {}, err: (l) => err.push(l) },
  );
  expect(code).toBe(EXIT.usage);
  expect(err[0]).toBe("error: An API key is needed: pass --api-key <key> or set CELLWRIGHT_API_KEY.");
});
