import { createServer } from "node:http";
import next from "next";
import type { Config } from "../config.ts";
import { answerClientError, edgeListener } from "../http/edge-listener.ts";
import { startControl } from "./control.ts";

/**
 * Serves the production build from this process: HTTP in front, with the edge checks
 * (edge-listener.ts), and Next.js behind.
 */
export async function serve(root: string, config: Config): Promise<void> {
  const app = next({ dev: false, dir: root, hostname: config.host, port: config.port });
  await app.prepare();
  const handle = app.getRequestHandler();
  const server = createServer(edgeListener(config.trustProxy, handle, startControl(config)));
  server.on("clientError", answerClientError);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.port, config.host, resolve);
  });
  console.log(`[cellwright] listening on http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${config.port}`);
}
