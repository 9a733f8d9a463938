// `npm run cli -- <command>`: workspaces and API keys from the shell. See lib/cli/commands.ts.
// `mcp` and `export --base` are apart: clients of a running server, they must not open the database.
import { runCli } from "./run.ts";
import { runMcpBridge } from "./mcp-bridge.ts";
import { runImportFile } from "./import-file.ts";
import { loadConfig } from "../config.ts";
import { isBaseExport, runBaseExport } from "./base-export.ts";

const argv = process.argv.slice(2);
// `import --base` and `export --base` are clients of a running server: the file travels over HTTP,
// and no database is opened. (`import --in` and `export --out` are the database move.)
const fileImport = argv[0] === "import" && argv.some((a) => a === "--base" || a.startsWith("--base="));
const io = {
  out: (l: string) => console.log(l),
  err: (l: string) => console.error(l),
  progress: process.stderr.isTTY ? (t: string) => void process.stderr.write(t) : undefined,
};
const code =
  argv[0] === "mcp"
    ? await runMcpBridge(loadConfig(process.env).remote)
    : fileImport
      ? await runImportFile(argv.slice(1), loadConfig(process.env).remote, io)
      : isBaseExport(argv)
        ? await runBaseExport(argv, loadConfig(process.env).remote, { stdout: process.stdout, stderr: process.stderr })
        : await runCli(argv, process.env);
process.exit(code);
