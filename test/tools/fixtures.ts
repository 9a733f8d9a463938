import { createHash } from "node:crypto";
import zlib from "node:zlib";
import ExcelJS from "exceljs";

// Builds PDF, DOCX and XLSX files in memory so the tests carry no binary fixtures.

/** A minimal valid PDF: one Helvetica text line per page, correct xref offsets. */
export function buildPdf(pages: string[], opts: { title?: string; encryptWithPassword?: string } = {}): Buffer {
  const objs: string[] = [];
  objs.push("<< /Type /Catalog /Pages 2 0 R >>");
  objs.push(`<< /Type /Pages /Kids [${pages.map((_, i) => `${3 + i * 2} 0 R`).join(" ")}] /Count ${pages.length} >>`);
  const fontRef = 3 + pages.length * 2;
  pages.forEach((text, i) => {
    const content = `BT /F1 12 Tf 72 720 Td (${text.replace(/[()\\]/g, "\\$&")}) Tj ET`;
    objs.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${4 + i * 2} 0 R ` +
        `/Resources << /Font << /F1 ${fontRef} 0 R >> >> >>`,
    );
    objs.push(`<< /Length ${Buffer.byteLength(content, "latin1")} >>\nstream\n${content}\nendstream`);
  });
  objs.push("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
  const infoRef = objs.length + 1;
  objs.push(`<< /Title (${opts.title ?? "Untitled"}) >>`);

  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objs.forEach((o, i) => {
    offsets.push(Buffer.byteLength(out, "latin1"));
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, "latin1");
  out += `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n`;
  out += offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("");
  const encrypt = opts.encryptWithPassword ? encryptionTrailer(opts.encryptWithPassword) : "";
  out += `trailer\n<< /Size ${objs.length + 1} /Root 1 0 R /Info ${infoRef} 0 R${encrypt} >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}

// Standard security handler, revision 2 (40-bit RC4): enough for pdf.js to demand a password.
const PAD = Buffer.from("28BF4E5E4E758A4164004E56FFFA01082E2E00B6D0683E802F0CA9FE6453697A", "hex");
function encryptionTrailer(userPassword: string): string {
  const padded = (pw: string) => Buffer.concat([Buffer.from(pw, "latin1"), PAD]).subarray(0, 32);
  const id = Buffer.from("0123456789abcdef0123456789abcdef", "hex");
  const o = rc4(md5(padded("owner-password")).subarray(0, 5), padded(userPassword));
  const p = Buffer.alloc(4);
  p.writeInt32LE(-44);
  const key = md5(Buffer.concat([padded(userPassword), o, p, id])).subarray(0, 5);
  const u = rc4(key, PAD);
  return (
    ` /Encrypt << /Filter /Standard /V 1 /R 2 /O <${o.toString("hex")}> /U <${u.toString("hex")}> /P -44 >>` +
    ` /ID [<${id.toString("hex")}> <${id.toString("hex")}>]`
  );
}
const md5 = (b: Buffer) => createHash("md5").update(b).digest();
function rc4(key: Buffer, data: Buffer): Buffer {
  const s = Array.from({ length: 256 }, (_, i) => i);
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i] + key[i % key.length]) & 255;
    [s[i], s[j]] = [s[j], s[i]];
  }
  const out = Buffer.alloc(data.length);
  for (let n = 0, i = 0, j = 0; n < data.length; n++) {
    i = (i + 1) & 255;
    j = (j + s[i]) & 255;
    [s[i], s[j]] = [s[j], s[i]];
    out[n] = data[n] ^ s[(s[i] + s[j]) & 255];
  }
  return out;
}

/** A ZIP container (deflate), enough for DOCX and for zip-bomb declarations. */
export function buildZip(entries: Record<string, Buffer | string>): Buffer {
  return buildRawZip(
    Object.entries(entries).map(([name, content]) => {
      const data = Buffer.from(content);
      return { name, packed: zlib.deflateRawSync(data), crc: zlib.crc32(data), size: data.length };
    }),
  );
}

/** A ZIP of already deflated entries, whose declared `size` may be anything (a lying bomb). */
export function buildRawZip(entries: { name: string; packed: Buffer; crc: number; size: number }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const { name, packed, crc, size } of entries) {
    const nameBuf = Buffer.from(name, "utf8");
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(nameBuf.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(nameBuf.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBuf, packed);
    centrals.push(central, nameBuf);
    offset += local.length + nameBuf.length + packed.length;
  }
  const dir = Buffer.concat(centrals);
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(entries.length, 8);
  eocd.writeUInt16LE(entries.length, 10);
  eocd.writeUInt32LE(dir.length, 12);
  eocd.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, eocd]);
}

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** A DOCX with a heading and paragraphs. */
export function buildDocx(heading: string, paragraphs: string[], extra: Record<string, string | Buffer> = {}): Buffer {
  return buildZip({ ...docxParts(heading, paragraphs), ...extra });
}

/** The parts of a minimal DOCX, by name. */
export function docxParts(heading: string, paragraphs: string[]): Record<string, string> {
  const W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";
  const para = (text: string, style?: string) =>
    `<w:p>${style ? `<w:pPr><w:pStyle w:val="${style}"/></w:pPr>` : ""}<w:r><w:t xml:space="preserve">${esc(text)}</w:t></w:r></w:p>`;
  return {
    "[Content_Types].xml":
      `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
      `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
      `<Default Extension="xml" ContentType="application/xml"/>` +
      `<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
    "_rels/.rels":
      `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
      `<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
    "word/document.xml":
      `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="${W}"><w:body>` +
      para(heading, "Heading1") +
      paragraphs.map((p) => para(p)).join("") +
      `</w:body></w:document>`,
  };
}

/** An XLSX with two sheets, a formula, a date and a value that needs CSV quoting. */
export async function buildXlsx(): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const people = wb.addWorksheet("People");
  people.addRow(["Name", "Company", "Joined"]);
  people.addRow(["Ada Lovelace", "Analytical, Ltd", new Date(Date.UTC(2021, 4, 3))]);
  people.addRow(["Grace Hopper", "Navy", new Date(Date.UTC(2019, 0, 15))]);
  const totals = wb.addWorksheet("Totals");
  totals.addRow(["Units", 40]);
  totals.addRow(["More", 2]);
  totals.addRow(["Sum", { formula: "B1+B2", result: 42 }]);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** A spreadsheet with many rows, to exercise the row limit. */
export async function buildLongXlsx(rows: number): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const sheet = wb.addWorksheet("Big");
  for (let i = 1; i <= rows; i++) sheet.addRow([`row ${i}`, i]);
  return Buffer.from(await wb.xlsx.writeBuffer());
}
