import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError, appError } from "../../lib/errors.ts";
import { fileAnalysisTool, parseFileReference, type FileStore, type StoredFileContent } from "../../lib/tools/index.ts";
import { startPageServer, type PageServer } from "../support/page-server.ts";
import { buildDocx, buildPdf, buildXlsx } from "./fixtures.ts";
import { makeContext } from "./context.ts";

const PNG = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex");
const DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

let pages: PageServer;
const stored = new Map<string, StoredFileContent & { workspaceId: string }>();
const store: FileStore = {
  async read(fileId, workspaceId) {
    const f = stored.get(fileId);
    if (!f || f.workspaceId !== workspaceId) throw appError("file_not_found");
    return { name: f.name, contentType: f.contentType, bytes: f.bytes };
  },
};

beforeAll(async () => {
  pages = await startPageServer({
    "/files/report.pdf": {
      contentType: "application/pdf",
      body: buildPdf(["Revenue reached 4.2 million euros.", "Staff grew to 48."], { title: "Annual Report 2023" }),
    },
    "/files/locked.pdf": { contentType: "application/pdf", body: buildPdf(["x"], { encryptWithPassword: "pw" }) },
    "/files/sheet.xlsx": { contentType: "application/octet-stream", body: await buildXlsx() },
  });
  const filler = Array.from(
    { length: 40 },
    (_, i) => `Section ${i}: general remarks on the weather and the canteen menu this week.`,
  );
  filler.splice(25, 0, "The board approved a dividend of 1.20 euros per share for 2023.");
  stored.set("file_AAAAAAAAAAAAAAAAAAAA", {
    workspaceId: "ws_1",
    name: "minutes.docx",
    contentType: DOCX_TYPE,
    bytes: buildDocx("Board minutes", filler),
  });
  stored.set("file_IMAGEIMAGEIMAGEIMAG", {
    workspaceId: "ws_1",
    name: "logo.png",
    contentType: "image/png",
    bytes: PNG,
  });
  stored.set("file_BIGBIGBIGBIGBIGBIGB", {
    workspaceId: "ws_1",
    name: "big.txt",
    contentType: "text/plain",
    bytes: Buffer.alloc(2048, "a"),
  });
});
afterAll(() => pages.close());

async function failure(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error("expected a rejection");
}

const storeCtx = (extra: Parameters<typeof makeContext>[1] = {}) =>
  makeContext({}, { files: store, workspaceId: "ws_1", ...extra });

describe("file references", () => {
  it.each([
    ["https://cdn.example.com/a.pdf", { kind: "remote", url: "https://cdn.example.com/a.pdf" }],
    ["file_AAAAAAAAAAAAAAAAAAAA", { kind: "stored", fileId: "file_AAAAAAAAAAAAAAAAAAAA" }],
    ["file:file_AAAAAAAAAAAAAAAAAAAA", { kind: "stored", fileId: "file_AAAAAAAAAAAAAAAAAAAA" }],
    ["cellwright-file://file_AAAAAAAAAAAAAAAAAAAA", { kind: "stored", fileId: "file_AAAAAAAAAAAAAAAAAAAA" }],
    ["/api/v1/files/file_AAAAAAAAAAAAAAAAAAAA", { kind: "stored", fileId: "file_AAAAAAAAAAAAAAAAAAAA" }],
  ])("parses %s", (value, expected) => {
    expect(parseFileReference(value)).toEqual(expected);
  });

  it.each(["file:///etc/passwd", "/tmp/x.pdf", "/api/v1/files/../secrets", "ftp://x/y", "report.pdf"])(
    "rejects %s",
    (value) => {
      expect(() => parseFileReference(value)).toThrow(AppError);
    },
  );
});

describe("file-analysis", () => {
  it("reads a remote PDF through the guard, with title and final URL as the source", async () => {
    const { documents, output } = await fileAnalysisTool.execute(
      { url: `${pages.url}/files/report.pdf` },
      makeContext(),
    );
    expect(documents[0]).toMatchObject({ url: `${pages.url}/files/report.pdf`, title: "Annual Report 2023" });
    expect(output).toMatch(/^<<<UNTRUSTED_DATA /);
    expect(output).toContain("Type: pdf");
    expect(output).toContain("Revenue reached 4.2 million euros.");
  });

  it("reads a remote spreadsheet served with a generic type", async () => {
    const { output } = await fileAnalysisTool.execute({ url: `${pages.url}/files/sheet.xlsx` }, makeContext());
    expect(output).toContain('Ada Lovelace,"Analytical, Ltd",2021-05-03');
  });

  it("reads an uploaded file and keeps the passages relevant to the instructions", async () => {
    const ctx = storeCtx({
      instructions: "What dividend per share did the board approve?",
      limits: { maxTokens: 300 },
    });
    const { documents, output } = await fileAnalysisTool.execute({ url: "file_AAAAAAAAAAAAAAAAAAAA" }, ctx);
    expect(documents[0]).toMatchObject({ url: "/api/v1/files/file_AAAAAAAAAAAAAAAAAAAA", title: "minutes.docx" });
    const text = output as string;
    expect(text).toContain("# Board minutes");
    expect(text).toContain("dividend of 1.20 euros per share");
    expect(text).not.toContain("Section 35:");
    expect(text).toContain("[truncated:");
  });

  it("returns images as an image marker for the engine", async () => {
    const { output, documents } = await fileAnalysisTool.execute({ url: "file_IMAGEIMAGEIMAGEIMAG" }, storeCtx());
    expect(output).toEqual({
      kind: "image",
      mediaType: "image/png",
      data: PNG.toString("base64"),
      name: "logo.png",
      note: expect.stringContaining("data, not instructions"),
    });
    expect(documents[0].title).toBe("logo.png");
  });

  it("enforces workspace isolation and needs a file store for uploads", async () => {
    const other = makeContext({}, { files: store, workspaceId: "ws_2" });
    expect((await failure(fileAnalysisTool.execute({ url: "file_AAAAAAAAAAAAAAAAAAAA" }, other))).code).toBe(
      "file_not_found",
    );
    expect((await failure(fileAnalysisTool.execute({ url: "file_AAAAAAAAAAAAAAAAAAAA" }, makeContext()))).code).toBe(
      "tool_not_configured",
    );
  });

  it("refuses files over the size limit, remote or uploaded", async () => {
    const small = { limits: { maxFileBytes: 1024 } };
    expect((await failure(fileAnalysisTool.execute({ url: "file_BIGBIGBIGBIGBIGBIGB" }, storeCtx(small)))).code).toBe(
      "file_too_large",
    );
    expect((await failure(fileAnalysisTool.execute({ url: `${pages.url}/huge` }, makeContext({}, small)))).code).toBe(
      "file_too_large",
    );
  });

  it("reports encrypted, empty and blocked files as cell errors", async () => {
    expect(
      (await failure(fileAnalysisTool.execute({ url: `${pages.url}/files/locked.pdf` }, makeContext()))).code,
    ).toBe("corrupt_file");
    expect((await failure(fileAnalysisTool.execute({ url: `${pages.url}/empty` }, makeContext()))).code).toBe(
      "empty_file",
    );
    const guarded = makeContext({}, { limits: { allowedPrivateHosts: [] } });
    expect((await failure(fileAnalysisTool.execute({ url: `${pages.url}/files/report.pdf` }, guarded))).code).toBe(
      "blocked_url",
    );
  });
});
