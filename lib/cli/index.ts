// `npm run cli -- <command>`: workspaces and API keys from the shell. See lib/cli/commands.ts.
// `mcp` is apart: it forwards stdio to a running server and must not open the database.
import { runCli } from "./run.ts";
import { runMcpBridge } from "./mcp-bridge.ts";
import { loadConfig } from "../config.ts";

const argv = process.argv.slice(2);
const code = argv[0] === "mcp" ? await runMcpBridge(loadConfig(process.env).mcpBridge) : await runCli(argv, process.env);
process.exit(code);
