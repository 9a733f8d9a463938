import zlib from "node:zlib";
import { buildRawZip, docxParts } from "../tools/fixtures.ts";

// Documents built to hurt a parser, for the event-loop and extraction tests.

/** A page of `depth` nested divs: quadratic or stack-overflowing for DOM and Markdown converters. */
export const nestedDivPage = (depth = 20_000) =>
  Buffer.from(`<html><body>${"<div>".repeat(depth)}deep${"</div>".repeat(depth)}</body></html>`);

/**
 * A DOCX whose document.xml declares 1 KB but inflates to `mb` megabytes: only counting what
 * really comes out of the archive can stop it. Built from one flushed deflate segment repeated,
 * so the test never holds the inflated bytes itself.
 */
export function lyingZipBombDocx(mb = 2_000): Buffer {
  const flush = { finishFlush: zlib.constants.Z_SYNC_FLUSH };
  const { "word/document.xml": _document, ...rest } = docxParts("Bomb", []);
  const block = zlib.deflateRawSync(Buffer.alloc(1024 * 1024, "a"), flush);
  const head = `<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>`;
  const packed = Buffer.concat([
    zlib.deflateRawSync(head, flush),
    ...Array<Buffer>(mb).fill(block),
    zlib.deflateRawSync("</w:t></w:r></w:p></w:body></w:document>"),
  ]);
  const parts = Object.entries(rest).map(([name, text]) => ({
    name,
    packed: zlib.deflateRawSync(text),
    crc: zlib.crc32(text),
    size: Buffer.byteLength(text),
  }));
  // The CRC cannot be known without inflating; readers check sizes, and this one's is a lie anyway.
  return buildRawZip([...parts, { name: "word/document.xml", packed, crc: 0, size: 1024 }]);
}

/**
 * A workbook of about `mb` megabytes that is mostly incompressible text, stored in one sheet of
 * inline strings: large to upload and slow to parse, yet within the expansion cap.
 */
export function largeWorkbook(mb: number): Buffer {
  const rows: string[] = [];
  let bytes = 0;
  for (let r = 1; bytes < mb * 1024 * 1024; r++) {
    const cells = Array.from(
      { length: 4 },
      (_, c) => `<c r="${String.fromCharCode(65 + c)}${r}" t="inlineStr"><is><t>${randomText(24)}</t></is></c>`,
    );
    const row = `<row r="${r}">${cells.join("")}</row>`;
    rows.push(row);
    bytes += row.length / 3; // deflate takes this text to about a third
  }
  const sheet = `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${MAIN}"><sheetData>${rows.join("")}</sheetData></worksheet>`;
  return workbookZip([packedPart("xl/worksheets/sheet1.xml", sheet, 1)]);
}

/**
 * A workbook whose one shared string inflates to `mb` megabytes (about 67 KB packed for 64 MB):
 * the first zip bomb of the trust issue.
 */
export function oneHugeSharedStringWorkbook(mb = 64): Buffer {
  return sharedStringBomb(mb, `<si><t>`, "a", `</t></si>`);
}

/**
 * A workbook whose shared strings are `mb` megabytes of small strings, each cached on its own:
 * the second zip bomb of the trust issue.
 */
export function manySmallSharedStringsWorkbook(mb = 64): Buffer {
  return sharedStringBomb(mb, "", "<si><t>ab</t></si>", "");
}

/** Shared strings of one flushed deflate segment repeated, so the test never holds them inflated. */
function sharedStringBomb(mb: number, head: string, unit: string, tail: string): Buffer {
  const flush = { finishFlush: zlib.constants.Z_SYNC_FLUSH };
  const block = zlib.deflateRawSync(unit.repeat(Math.floor((1024 * 1024) / unit.length)), flush);
  const open = `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="${MAIN}">${head}`;
  const packed = Buffer.concat([
    zlib.deflateRawSync(open, flush),
    ...Array<Buffer>(mb).fill(block),
    zlib.deflateRawSync(`${tail}</sst>`),
  ]);
  const sheet = `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${MAIN}"><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c></row></sheetData></worksheet>`;
  // The declared size is modest, as a crafted file's would be; the CRC cannot be known without inflating.
  return workbookZip(
    [packedPart("xl/worksheets/sheet1.xml", sheet), { name: "xl/sharedStrings.xml", packed, crc: 0, size: 4096 }],
    true,
  );
}

const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const packedPart = (name: string, text: string, level?: number) => ({
  name,
  packed: zlib.deflateRawSync(text, { level }),
  crc: zlib.crc32(text),
  size: Buffer.byteLength(text),
});

/** A one-sheet workbook ("Big") around the given parts. */
function workbookZip(
  parts: { name: string; packed: Buffer; crc: number; size: number }[],
  sharedStrings = false,
): Buffer {
  const R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
  const strings = sharedStrings
    ? `<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>`
    : "";
  const stringsRel = sharedStrings
    ? `<Relationship Id="rId2" Type="${R}/sharedStrings" Target="sharedStrings.xml"/>`
    : "";
  const files: Record<string, string> = {
    "[Content_Types].xml": `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>${strings}</Types>`,
    "_rels/.rels": `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${R}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    "xl/workbook.xml": `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${MAIN}" xmlns:r="${R}"><sheets><sheet name="Big" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    "xl/_rels/workbook.xml.rels": `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${R}/worksheet" Target="worksheets/sheet1.xml"/>${stringsRel}</Relationships>`,
  };
  return buildRawZip([...Object.entries(files).map(([name, text]) => packedPart(name, text)), ...parts]);
}

const ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ";
function randomText(n: number): string {
  let s = "";
  for (let i = 0; i < n; i++) s += ALPHABET[Math.floor(Math.random() * ALPHABET.length)];
  return s;
}

/** The one sentence of largePage that answers LARGE_PAGE_QUESTION. */
export const LARGE_PAGE_FACT = "Zephyrine Robotics employs 4,321 engineers";
export const LARGE_PAGE_QUESTION = "How many engineers does Zephyrine Robotics employ?";

/**
 * An article of `blocks` paragraphs and headings of varied words, about `mb` megabytes in all,
 * with LARGE_PAGE_FACT in one paragraph near the middle: slow to split, score and rank.
 */
export function largePage(blocks = 42_000, mb = 4.9): string {
  const words = "market energy river council harbour season export engine garden station ledger orchard".split(" ");
  let seed = 7;
  const word = () => words[(seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) % words.length];
  const perBlock = Math.floor((mb * 1_000_000) / blocks) - 12;
  const parts: string[] = [];
  for (let i = 0; i < blocks; i++) {
    let text = i === Math.floor(blocks / 2) ? `${LARGE_PAGE_FACT}.` : `Block ${i}.`;
    while (text.length < perBlock) text += ` ${word()}`;
    parts.push(i % 20 === 0 ? `<h2>${text.slice(0, 60)}</h2>` : `<p>${text}</p>`);
  }
  return `<!doctype html><html><head><title>Large page</title></head><body><main><article><h1>Large page</h1>${parts.join("\n")}</article></main></body></html>`;
}
