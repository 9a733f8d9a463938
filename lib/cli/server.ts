import { createServer } from "node:http";
import next from "next";
import type { Config } from "../config.ts";
import { answerClientError, edgeListener } from "../http/edge-listener.ts";
import { hostPolicy } from "../http/allowed-hosts.ts";
import { startControl } from "./control.ts";

/**
 * Serves the production build from this process: HTTP in front, with the edge checks
 * (edge-listener.ts), and Next.js behind.
 */
export async function serve(root: string, config: Config): Promise<void> {
  // What `next start --experimental-next-config-strip-types` sets: next.config.ts is loaded with
  // Node's own type stripping, so the server never loads SWC's native compiler (21 MB resident,
  // bench:server). Without it, Next.js falls back to SWC by itself.
  if (process.features.typescript) process.env.__NEXT_NODE_NATIVE_TS_LOADER_ENABLED = "true";
  const app = next({ dev: false, dir: root, hostname: config.host, port: config.port });
  await app.prepare();
  const handle = app.getRequestHandler();
  const server = createServer(edgeListener(config.trustProxy, hostPolicy(config), handle, startControl(config)));
  server.on("clientError", answerClientError);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.port, config.host, resolve);
  });
  console.log(
    `[cellwright] listening on http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${config.port}`,
  );
}
