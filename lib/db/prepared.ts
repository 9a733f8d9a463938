import { createHash } from "node:crypto";

// PostgreSQL parses and plans an unnamed statement every time it runs. The engine's hot
// statements (claim, context, storing a batch, the ledger) run many times a second with the same
// text, and their planning was a large share of the database's CPU a cell: marked with
// `prepared`, they are prepared once per connection under a name derived from their text, and
// after a few runs PostgreSQL may keep a generic plan. Only marked texts are named, so the
// statements prepared per connection stay a short, fixed list (Prisma's own vary with their
// arguments). The mark is an SQL comment: the embedded database runs the text unchanged.

const MARK = "/* prepared */ ";
const MAX_NAMES = 256;
const names = new Map<string, string>();

/** Marks a statement whose text is fixed (its values are parameters) to be prepared once per connection. */
export const prepared = (sql: string): string => MARK + sql;

/** The prepared statement's name for a marked text; undefined (unnamed) for any other. */
export function preparedName(sql: string): string | undefined {
  if (!sql.startsWith(MARK)) return undefined;
  let name = names.get(sql);
  if (name === undefined) {
    if (names.size >= MAX_NAMES) return undefined;
    name = `cw_${createHash("sha1").update(sql).digest("hex").slice(0, 20)}`;
    names.set(sql, name);
  }
  return name;
}
