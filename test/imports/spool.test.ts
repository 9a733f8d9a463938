import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { analyzeFile, type ImportOptions } from "../../lib/imports/analyze.ts";
import { ParseFailure, readRecords, type FileRecord } from "../../lib/imports/records.ts";
import { SpoolWriter, spoolPath } from "../../lib/imports/spool.ts";

// A CSV import parses its file once: the first pass spools the records csv-parse gave, and the
// second pass reads them back. The spooled records must be exactly the parsed ones (fields, line
// numbers, skipped blank lines), and a first pass that fails leaves no spool behind.

const dir = mkdtempSync(path.join(tmpdir(), "cw-spool-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const OPTIONS: ImportOptions = { mergeOn: [], createColumns: true, typecast: true, runAi: false, header: true };

async function collect(file: string): Promise<FileRecord[]> {
  const out: FileRecord[] = [];
  for await (const r of readRecords(file, "csv")) out.push(r);
  return out;
}

const TRICKY =
  "\ufeffName;Notes;Score\r\n" +
  'Acme;"a ""quoted""; value";1.234,5\r\n' +
  "\r\n" +
  'Bolt;"two\nlines\r\nand three";7\r\n' +
  "Cy;back\\slash \t tab;\r\n" +
  ";;\r\n" +
  "Émile;漢字 🙂 \u0000;12;extra\r\n" +
  "Last;no newline at the end;3";

it("spools exactly the records the CSV parser gives, and the second read takes them from the spool", async () => {
  const file = path.join(dir, "tricky.csv");
  writeFileSync(file, TRICKY);
  const parsed = await collect(file);
  expect(parsed.length).toBe(7);

  const spool = new SpoolWriter(spoolPath(file));
  const plan = await analyzeFile(file, "csv", OPTIONS, [], null, undefined, spool);
  await spool.done();
  expect(plan.lines).toBe(6);
  expect(existsSync(spoolPath(file))).toBe(true);

  // The CSV itself is gone: whatever is read now comes from the spool.
  writeFileSync(file, "Other\nfile\n");
  expect(await collect(file)).toEqual(parsed);
  // The first pass over the spool settles the same plan.
  expect(await analyzeFile(file, "csv", OPTIONS, [], null)).toEqual(plan);
});

it("a first pass that fails leaves no spool, whole or partial", async () => {
  const file = path.join(dir, "broken.csv");
  writeFileSync(file, 'Name,Notes\nAcme,fine\nBolt,"never closed\n');
  const spool = new SpoolWriter(spoolPath(file));
  const failure = await analyzeFile(file, "csv", OPTIONS, [], null, undefined, spool).catch((e) => e);
  await spool.abandon();
  expect(failure).toBeInstanceOf(ParseFailure);
  expect(existsSync(spoolPath(file))).toBe(false);
  expect(existsSync(`${spoolPath(file)}.partial`)).toBe(false);
});
