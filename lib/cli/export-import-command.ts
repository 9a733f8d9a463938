import { stringOption, type CliCommand, type CommandInput } from "./command.ts";
import { exportDatabase, importDatabase } from "./export-import.ts";

// `export` and `import`: move everything from one database to another, e.g. from the embedded
// database to PostgreSQL when a deployment scales out. See lib/cli/export-import.ts.

function report(input: CommandInput, verb: string, file: string, counts: Record<string, number>) {
  if (input.options.json) return input.out(JSON.stringify({ file, counts }));
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  input.out(
    `${verb} ${total} records (${Object.entries(counts)
      .map(([t, n]) => `${t} ${n}`)
      .join(", ")}) ${verb === "Exported" ? "to" : "from"} ${file}.`,
  );
}

export const EXPORT_IMPORT_COMMANDS: CliCommand[] = [
  {
    path: "export",
    summary:
      "Write every workspace, key hash, base, row, cell, ledger entry, webhook, chat message and file record to a JSON-lines file. With --base <id> instead: one base's rows as CSV, XLSX or JSON Lines, from a running server.",
    usage: "--out <file> [--json]",
    options: { out: { type: "string", required: true }, json: { type: "boolean" } },
    async run(rt, input) {
      const file = stringOption(input, "out");
      report(input, "Exported", file, await exportDatabase(rt.db, file));
    },
  },
  {
    path: "import",
    summary: "Load an export into a new, empty database (e.g. PostgreSQL with DATABASE_URL), all or nothing.",
    usage: "--in <file> [--json]",
    options: { in: { type: "string", required: true }, json: { type: "boolean" } },
    async run(rt, input) {
      const file = stringOption(input, "in");
      report(input, "Imported", file, await importDatabase(rt.db, file));
    },
  },
];
