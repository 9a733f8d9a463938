import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { createTestApp, type TestApp } from "../support/app.ts";
import { freshDatabaseTarget } from "../support/database.ts";
import { TEST_SECRETS_KEY } from "../support/rate-limit-env.ts";
import { call, callError, connect } from "../mcp/helpers.ts";
import { startFakeProvider, type FakeProvider } from "../support/fake-provider.ts";
import { waitFor } from "../support/wait.ts";
import { loadConfig } from "../../lib/config.ts";
import { createRuntime, stopRuntime } from "../../lib/runtime.ts";
import type { Prisma } from "../../lib/db/database.ts";
import { exportDatabase, importDatabase } from "../../lib/cli/export-import.ts";
import { readSecretValues, redactSecrets } from "../../lib/secrets/index.ts";

// The canary: a random value, stored as a secret and taken down every path a secret travels, must
// then be found nowhere: in no row of any table, no line of the log, no HTTP or MCP answer, no file
// an export writes. A path that carries secrets (HTTP columns' requests, their errors) adds an
// entry to PATHS; every check below then covers it too.

const CANARY = `canary-${randomBytes(18).toString("base64url")}`;
const NAME = "CANARY_TOKEN";

interface Harness {
  app: TestApp;
  mcp: Client;
  /** A request whose answer (body and headers) is kept for the sweep. */
  api: TestApp["api"];
  /** An MCP tool call whose answer is kept; `fail` expects a tool error. */
  tool(name: string, args?: Record<string, unknown>, fail?: boolean): Promise<unknown>;
  /** Files written on the way (exports), swept like answers. */
  files: string[];
  /** A data provider that echoes whatever it is sent, the secret included. */
  provider: FakeProvider;
}

/** Every way a secret travels. Each leaves the canary stored (or stores it again) when it is done. */
const PATHS: Record<string, (h: Harness) => Promise<void>> = {
  "create over REST": async (h) => {
    const res = await h.api("POST", "/api/v1/secrets", { body: { name: NAME, value: CANARY } });
    expect(res.status).toBe(201);
  },
  "list over REST": async (h) => {
    expect((await h.api("GET", "/api/v1/secrets")).body.secrets.map((s: { name: string }) => s.name)).toContain(NAME);
  },
  "refusals: a name in use, a bad name, a value too long, an unknown field": async (h) => {
    expect((await h.api("POST", "/api/v1/secrets", { body: { name: NAME, value: CANARY } })).status).toBe(409);
    expect((await h.api("POST", "/api/v1/secrets", { body: { name: "bad name", value: CANARY } })).status).toBe(400);
    const long = CANARY.repeat(Math.ceil(9_000 / CANARY.length));
    expect((await h.api("POST", "/api/v1/secrets", { body: { name: "LONG", value: long } })).status).toBe(400);
    const extra = { name: "EXTRA", value: CANARY, [CANARY.slice(0, 8)]: true };
    expect((await h.api("POST", "/api/v1/secrets", { body: extra })).status).toBe(400);
  },
  "replace, with an Idempotency-Key (its answer is stored)": async (h) => {
    const opts = { body: { name: NAME, value: CANARY, replace: true }, headers: { "idempotency-key": "canary-1" } };
    expect((await h.api("POST", "/api/v1/secrets", opts)).status).toBe(201);
    expect((await h.api("POST", "/api/v1/secrets", opts)).status).toBe(201);
  },
  "delete and create again": async (h) => {
    expect((await h.api("DELETE", `/api/v1/secrets/${NAME}`)).status).toBe(200);
    expect((await h.api("POST", "/api/v1/secrets", { body: { name: NAME, value: CANARY } })).status).toBe(201);
  },
  "MCP: create, refuse, list, delete": async (h) => {
    await h.tool("create_secret", { name: "MCP_CANARY", value: CANARY });
    await h.tool("create_secret", { name: "MCP_CANARY", value: CANARY }, true);
    await h.tool("list_secrets");
    await h.tool("delete_secret", { name: "MCP_CANARY" });
  },
  "the audit log, over REST and MCP": async (h) => {
    const res = await h.api("GET", "/api/v1/audit?action=secret.");
    expect(res.body.entries.length).toBeGreaterThanOrEqual(5);
    await h.tool("read_audit_log", { action: "secret." });
  },
  "reading the value for a request, and redacting an echo of it": async (h) => {
    const values = await readSecretValues(h.app.rt.db.prisma, h.app.rt.secrets, h.app.workspaceA, [NAME]);
    expect(values.get(NAME)).toBe(CANARY);
    expect(redactSecrets(`echo: ${CANARY}`, values)).toBe(`echo: [secret:${NAME}]`);
  },
  "HTTP and waterfall columns send it to a provider that echoes it back, in values and errors": async (h) => {
    const request = (path: string) => ({
      method: "POST",
      url: `${h.provider.url}${path}?q={{Name}}&key={{secret:${NAME}}}`,
      headers: { Authorization: `Bearer {{secret:${NAME}}}` },
      body: { token: `{{secret:${NAME}}}`, name: "{{Name}}" },
    });
    const res = await h.api("POST", "/api/v1/bases", {
      body: {
        baseName: "Canary providers",
        columns: [
          { name: "Name", type: "short-text", isPrimary: true },
          { name: "Echo", type: "long-text", fill: { kind: "http", request: request("/echo"), extract: "$string($)" } },
          { name: "Fails", fill: { kind: "http", request: request("/fail"), extract: "x", retries: 0 } },
          {
            name: "Chain",
            fill: {
              kind: "waterfall",
              steps: [
                { kind: "http", request: request("/fail"), extract: "x", retries: 0 },
                { kind: "http", request: request("/echo"), extract: "headers.authorization" },
              ],
            },
          },
        ],
      },
    });
    expect(res.status, res.text).toBe(201);
    const baseId = res.body.baseId;
    await h.api("POST", `/api/v1/bases/${baseId}/add-rows`, { body: { rows: [{ cells: { Name: "acme" } }] } });
    const row = await waitFor(async () => {
      const rows = (await h.api("GET", `/api/v1/bases/${baseId}/rows?expand=true`)).body.rows;
      const cells = Object.values(rows[0].cells) as { status?: string }[];
      return cells.some((c) => c.status === "pending" || c.status === "running") ? undefined : rows[0];
    }, "the provider columns to settle");
    // The provider saw the secret, so it was sent; what it echoed comes back redacted.
    expect(JSON.stringify(h.provider.requests)).toContain(CANARY);
    expect(row.cells.Echo).toMatchObject({ status: "done" });
    expect(row.cells.Echo.value).toContain(`[secret:${NAME}]`);
    expect(row.cells.Fails).toMatchObject({ status: "error", error: { code: "provider_failed" } });
    expect(row.cells.Chain.value).toBe(`Bearer [secret:${NAME}]`);
    await h.api("GET", `/api/v1/bases/${baseId}/export?format=jsonl&metadata=true`);
  },
  "export, then import into an empty database with the same key": async (h) => {
    const dir = mkdtempSync(path.join(tmpdir(), "cw-canary-"));
    const file = path.join(dir, "export.jsonl");
    await exportDatabase(h.app.rt.db, file);
    h.files.push(file);
    const { target, drop } = await freshDatabaseTarget();
    const rt = await createRuntime(loadConfig({ DATA_DIR: dir, ...TEST_SECRETS_KEY }), { target, queue: "database" });
    try {
      await importDatabase(rt.db, file);
      const values = await readSecretValues(rt.db.prisma, rt.secrets, h.app.workspaceA, [NAME]);
      expect(values.get(NAME)).toBe(CANARY);
      expect(await tablesHolding(rt.db.prisma, CANARY)).toEqual([]);
      expect((await tablesHolding(rt.db.prisma, NAME)).length).toBeGreaterThan(0);
    } finally {
      await stopRuntime(rt);
      await drop();
    }
  },
};

/** The tables (any schema of the database) with a row whose text holds `needle`. */
async function tablesHolding(prisma: Prisma, needle: string): Promise<string[]> {
  const tables = await prisma.$queryRawUnsafe<{ schema: string; name: string }[]>(
    `SELECT table_schema::text AS schema, table_name::text AS name FROM information_schema.tables
      WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`,
  );
  const hits: string[] = [];
  for (const t of tables) {
    const ref = `"${t.schema}"."${t.name}"`;
    const [{ n }] = await prisma.$queryRawUnsafe<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM ${ref} t WHERE strpos(t::text, $1) > 0`,
      needle,
    );
    if (n > 0) hits.push(t.name);
  }
  return hits;
}

let h: Harness;
let log = "";
const answers: string[] = [];
const restore: (() => void)[] = [];

/** Keeps everything this process writes to stdout and stderr (console included) in `log`. */
function captureLog() {
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write;
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      log += typeof chunk === "string" ? chunk : Buffer.from(chunk as Uint8Array).toString("utf8");
      return (write as (...a: unknown[]) => boolean).call(stream, chunk, ...rest);
    }) as typeof stream.write;
    restore.push(() => {
      stream.write = write;
    });
  }
  for (const level of ["log", "info", "warn", "error", "debug"] as const) {
    const original = console[level];
    console[level] = (...args: unknown[]) => {
      log += `${args.map((a) => (a instanceof Error ? `${a.message}\n${a.stack}` : typeof a === "string" ? a : JSON.stringify(a))).join(" ")}\n`;
      original(...args);
    };
    restore.push(() => {
      console[level] = original;
    });
  }
}

beforeAll(async () => {
  captureLog();
  const provider = await startFakeProvider((r) =>
    r.path === "/fail"
      ? { status: 500, text: `upstream refused ${JSON.stringify(r.headers)} ${r.body}` }
      : { json: { headers: r.headers, query: Object.fromEntries(r.query), body: r.body } },
  );
  const app = await createTestApp({ ALLOWED_PRIVATE_HOSTS: "127.0.0.1" }, { engine: true });
  const mcp = await connect(app.keyA);
  const api: TestApp["api"] = async (method, p, opts) => {
    const res = await app.api(method, p, opts);
    answers.push(`${method} ${p} ${res.status} ${JSON.stringify([...res.headers])}\n${res.text}`);
    return res;
  };
  const tool: Harness["tool"] = async (name, args = {}, fail = false) => {
    const out = fail ? await callError(mcp, name, args) : await call(mcp, name, args);
    answers.push(`MCP ${name}\n${JSON.stringify(out)}`);
    return out;
  };
  h = { app, mcp, api, tool, files: [], provider };
}, 60_000);

afterAll(async () => {
  await h?.mcp.close();
  await h?.app.close();
  await h?.provider.close();
  for (const f of h?.files ?? []) rmSync(path.dirname(f), { recursive: true, force: true });
  for (const r of restore.reverse()) r();
});

describe("the secret canary", () => {
  for (const [name, run] of Object.entries(PATHS)) it(name, () => run(h), 60_000);

  it("is stored only as ciphertext: no row of any table holds it", async () => {
    expect(await tablesHolding(h.app.rt.db.prisma, CANARY)).toEqual([]);
    // The sweep does find what is there: the secret's name, in its row and the audit log.
    expect(await tablesHolding(h.app.rt.db.prisma, NAME)).toEqual(
      expect.arrayContaining(["workspace_secrets", "audit_entries"]),
    );
  });

  it("appears in no HTTP or MCP answer", () => {
    expect(answers.length).toBeGreaterThan(15);
    expect(answers.filter((a) => a.includes(CANARY))).toEqual([]);
    expect(answers.some((a) => a.includes(NAME))).toBe(true);
  });

  it("appears in no line of the log", () => {
    console.log(`[canary check] ${NAME} is logged only by name`);
    expect(log).toContain(`[canary check] ${NAME}`);
    expect(log.includes(CANARY)).toBe(false);
  });

  it("appears in no file an export wrote, nor in DATA_DIR", () => {
    const files = [...h.files, ...filesUnder(h.app.rt.config.dataDir)];
    expect(h.files.length).toBeGreaterThan(0);
    for (const f of files) expect(readFileSync(f).includes(CANARY), f).toBe(false);
    expect(readFileSync(h.files[0], "utf8")).toContain(NAME);
  });
});

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = path.join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(p);
    }
  };
  walk(dir);
  return out;
}
