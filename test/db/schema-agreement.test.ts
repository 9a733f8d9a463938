import path from "node:path";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../lib/db/database.ts";
import { migrate } from "../../lib/db/migrate.ts";
import { readMigrations } from "../../lib/db/migration-files.ts";
import { freshDatabaseTarget } from "../support/database.ts";

// schema.prisma and the hand-written migrations must agree (the schema engine that would diff
// them cannot be downloaded here). Migrate a fresh database, then check every model and field of
// Prisma's data model against the tables, columns, keys and indexes — and the reverse.
//
// Prisma 7's generated client carries a runtime data model (names, types, column names) but not
// nullability or attributes, so those come from parsing schema.prisma; the two are cross-checked.

interface Field {
  name: string;
  column: string;
  type: string;
  list: boolean;
  optional: boolean;
  attrs: string;
}
interface Model {
  name: string;
  table: string;
  fields: Field[];
  id: string[];
  uniques: string[][];
  indexes: string[][];
}

const SCALARS = new Set(["String", "Int", "BigInt", "Boolean", "DateTime", "Json", "Float", "Decimal", "Bytes"]);

function parseSchema(text: string): Model[] {
  const models: Model[] = [];
  for (const m of text.matchAll(/^model\s+(\w+)\s*\{([\s\S]*?)^\}/gm)) {
    const model: Model = { name: m[1], table: m[1], fields: [], id: [], uniques: [], indexes: [] };
    const cols = (list: string, all: Field[]) =>
      list
        .split(",")
        .map((s) => s.trim().replace(/\(.*$/, ""))
        .map((n) => all.find((f) => f.name === n)?.column ?? n);
    const blockAttrs: string[] = [];
    for (const raw of m[2].split("\n")) {
      const line = raw.replace(/\/\/.*$/, "").trim();
      if (!line) continue;
      if (line.startsWith("@@")) {
        blockAttrs.push(line);
        continue;
      }
      const f = /^(\w+)\s+(\w+)(\[\])?(\?)?\s*(.*)$/.exec(line);
      if (!f) throw new Error(`cannot parse field line: ${line}`);
      if (!SCALARS.has(f[2])) continue; // relation fields have no column
      const map = /@map\("([^"]+)"\)/.exec(f[5]);
      model.fields.push({
        name: f[1],
        column: map?.[1] ?? f[1],
        type: f[2],
        list: Boolean(f[3]),
        optional: Boolean(f[4]),
        attrs: f[5],
      });
    }
    for (const a of blockAttrs) {
      const args = /\(\s*\[([^\]]*)\]/.exec(a)?.[1];
      if (a.startsWith("@@map")) model.table = /"([^"]+)"/.exec(a)![1];
      else if (a.startsWith("@@id")) model.id = cols(args!, model.fields);
      else if (a.startsWith("@@unique")) model.uniques.push(cols(args!, model.fields));
      else if (a.startsWith("@@index")) model.indexes.push(cols(args!, model.fields));
    }
    for (const f of model.fields) {
      if (/@id\b/.test(f.attrs)) model.id = [f.column];
      if (/@unique\b/.test(f.attrs)) model.uniques.push([f.column]);
    }
    models.push(model);
  }
  return models;
}

/** The Postgres column type each Prisma scalar maps to (udt_name). */
function expectedUdt(f: Field): string {
  const base: Record<string, string> = {
    String: "text",
    Int: "int4",
    BigInt: "int8",
    Boolean: "bool",
    DateTime: /@db\.Timestamptz/.test(f.attrs) ? "timestamptz" : "timestamp",
    Json: "jsonb",
    Float: "float8",
    Decimal: "numeric",
    Bytes: "bytea",
  };
  return (f.list ? "_" : "") + base[f.type];
}

const schemaText = readFileSync(path.resolve(import.meta.dirname, "../../prisma/schema.prisma"), "utf8");
const models = parseSchema(schemaText);

let db: Database;
let drop: () => Promise<void>;
type ColumnInfo = {
  table_name: string;
  column_name: string;
  is_nullable: string;
  udt_name: string;
  column_default: string | null;
  datetime_precision: number | null;
};
let columns: ColumnInfo[];
let indexes: { table: string; columns: string[]; unique: boolean; primary: boolean }[];

beforeAll(async () => {
  const fresh = await freshDatabaseTarget();
  drop = fresh.drop;
  db = await openDatabase(fresh.target);
  await migrate(db);
  columns = await db.prisma.$queryRawUnsafe<ColumnInfo[]>(
    `SELECT table_name::text, column_name::text, is_nullable::text, udt_name::text, column_default::text, datetime_precision::int
     FROM information_schema.columns WHERE table_schema = current_schema()`,
  );
  const raw = await db.prisma.$queryRawUnsafe<
    { table: string; columns: string[]; unique: boolean; primary: boolean }[]
  >(
    `SELECT t.relname::text AS "table", ix.indisunique AS "unique", ix.indisprimary AS "primary",
       array(SELECT a.attname::text FROM unnest(ix.indkey) WITH ORDINALITY AS k(attnum, ord)
             JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum ORDER BY k.ord) AS columns
     FROM pg_index ix JOIN pg_class t ON t.oid = ix.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace
     WHERE n.nspname = current_schema() AND ix.indpred IS NULL`,
  );
  indexes = raw;
}, 60_000);
afterAll(async () => {
  await db?.close();
  await drop?.();
});

describe("schema.prisma and prisma/migrations agree", () => {
  it("the parsed schema matches the generated client's data model", async () => {
    const runtime = (
      db.prisma as unknown as {
        _runtimeDataModel: {
          models: Record<
            string,
            { dbName: string | null; fields: { name: string; kind: string; type: string; dbName?: string }[] }
          >;
        };
      }
    )._runtimeDataModel;
    expect(models.length).toBeGreaterThan(0);
    expect(models.map((m) => m.name).sort()).toEqual(Object.keys(runtime.models).sort());
    for (const m of models) {
      const rm = runtime.models[m.name];
      expect(rm.dbName ?? m.name, m.name).toBe(m.table);
      const scalar = rm.fields.filter((f) => f.kind === "scalar");
      expect(
        scalar.map((f) => [f.name, f.type, f.dbName ?? f.name]),
        m.name,
      ).toEqual(m.fields.map((f) => [f.name, f.type, f.column]));
    }
  });

  it("every model has its table and every field its column, with the right type and nullability", () => {
    expect(models.length).toBeGreaterThan(0);
    expect(columns.length).toBeGreaterThan(0);
    const problems: string[] = [];
    for (const m of models) {
      const tableCols = columns.filter((c) => c.table_name === m.table);
      if (tableCols.length === 0) {
        problems.push(`model ${m.name}: no table "${m.table}"`);
        continue;
      }
      for (const f of m.fields) {
        const c = tableCols.find((x) => x.column_name === f.column);
        if (!c) {
          problems.push(`${m.name}.${f.name}: no column ${m.table}.${f.column}`);
          continue;
        }
        const nullable = c.is_nullable === "YES";
        if (nullable !== f.optional)
          problems.push(
            `${m.name}.${f.name}: schema says ${f.optional ? "optional" : "required"}, column is ${nullable ? "NULL" : "NOT NULL"}`,
          );
        if (c.udt_name !== expectedUdt(f))
          problems.push(`${m.name}.${f.name}: expected ${expectedUdt(f)}, column is ${c.udt_name}`);
        const precision = /@db\.Timestamptz\((\d+)\)/.exec(f.attrs)?.[1];
        if (precision && c.datetime_precision !== Number(precision))
          problems.push(`${m.name}.${f.name}: precision ${c.datetime_precision}, schema ${precision}`);
        const hasDefault = /@default\(/.test(f.attrs);
        if (hasDefault !== (c.column_default !== null))
          problems.push(
            `${m.name}.${f.name}: @default ${hasDefault ? "present" : "absent"} in schema but ${c.column_default ?? "no default"} in the database`,
          );
        if (/@default\(autoincrement\(\)\)/.test(f.attrs) && !/nextval/.test(c.column_default ?? ""))
          problems.push(`${m.name}.${f.name}: not a sequence`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("every table and column in the database belongs to the schema (except the migrations ledger)", () => {
    const known = new Set(models.flatMap((m) => m.fields.map((f) => `${m.table}.${f.column}`)));
    const extra = columns
      .filter((c) => c.table_name !== "_cellwright_migrations")
      .map((c) => `${c.table_name}.${c.column_name}`)
      .filter((k) => !known.has(k));
    expect(extra).toEqual([]);
  });

  it("primary keys, unique constraints and indexes match", () => {
    expect(models.length).toBeGreaterThan(0);
    expect(indexes.length).toBeGreaterThan(0);
    const problems: string[] = [];
    const has = (table: string, cols: string[], pred: (i: (typeof indexes)[number]) => boolean) =>
      indexes.some((i) => i.table === table && pred(i) && i.columns.join(",") === cols.join(","));
    for (const m of models) {
      if (m.id.length === 0) problems.push(`${m.name} has no @id`);
      else if (!has(m.table, m.id, (i) => i.primary)) problems.push(`${m.name}: no primary key on (${m.id})`);
      for (const u of m.uniques)
        if (!has(m.table, u, (i) => i.unique && !i.primary)) problems.push(`${m.name}: no unique index on (${u})`);
      for (const x of m.indexes)
        if (!has(m.table, x, (i) => !i.primary)) problems.push(`${m.name}: no index on (${x})`);
    }
    // And no unique index in the database that the schema does not declare (partial ones excepted).
    for (const i of indexes.filter((x) => x.unique && !x.primary && x.table !== "_cellwright_migrations")) {
      const m = models.find((x) => x.table === i.table);
      if (!m?.uniques.some((u) => u.join(",") === i.columns.join(",")))
        problems.push(`${i.table}: unique index on (${i.columns}) is not in the schema`);
    }
    expect(problems).toEqual([]);
  });
});

describe("the migrator", () => {
  it("records what it applied and applies nothing twice", async () => {
    const names = readMigrations().map((m) => m.name);
    expect(names.length).toBeGreaterThan(0);
    for (const n of names) expect(n).toMatch(/^\d{14}_[a-z0-9_]+$/);
    const rows = await db.prisma.$queryRawUnsafe<{ name: string }[]>(
      `SELECT name FROM "_cellwright_migrations" ORDER BY name`,
    );
    expect(rows.map((r) => r.name)).toEqual(names);
    expect(await migrate(db)).toEqual([]);
  });

  it("refuses a migration that was changed after it was applied", async () => {
    const changed = readMigrations().map((m, i) => (i === 0 ? { ...m, checksum: "0".repeat(64) } : m));
    await expect(migrate(db, changed)).rejects.toThrow(/was changed after it was applied/);
  });

  it("rolls back a failing migration and records nothing for it", async () => {
    const bad = [
      ...readMigrations(),
      {
        name: "29990101000000_broken",
        sql: `CREATE TABLE "half_done" (id TEXT); SELECT no_such_function();`,
        checksum: "x",
      },
    ];
    await expect(migrate(db, bad)).rejects.toThrow();
    const tables = await db.prisma.$queryRawUnsafe<unknown[]>(
      `SELECT 1 FROM information_schema.tables WHERE table_name = 'half_done'`,
    );
    expect(tables).toHaveLength(0);
    const rows = await db.prisma.$queryRawUnsafe<unknown[]>(
      `SELECT 1 FROM "_cellwright_migrations" WHERE name = '29990101000000_broken'`,
    );
    expect(rows).toHaveLength(0);
  });
});
