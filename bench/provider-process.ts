// The data providers of bench:waterfall, in a process of their own so that their work does not
// share the engine's event loop. Three servers on 127.0.0.1, each answering after LATENCY ms:
// step s1 finds every second row, s2 every second row of the rest, s3 every row. Prints their
// URLs as one JSON line.
import http from "node:http";
import type { AddressInfo } from "node:net";

const latency = Number(process.argv[process.argv.indexOf("--latency") + 1] ?? 20);
const finds: Record<string, (i: number) => boolean> = {
  s1: (i) => i % 2 === 0,
  s2: (i) => i % 4 === 1,
  s3: () => true,
};
const urls: Record<string, string> = {};
for (const [name, found] of Object.entries(finds)) {
  const server = http.createServer((req, res) => {
    const i = Number(new URL(req.url ?? "/", "http://x").searchParams.get("i"));
    setTimeout(() => {
      if (found(i))
        res
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ email: `p${i}@${name}.example` }));
      else res.writeHead(404, { "content-type": "application/json" }).end("{}");
    }, latency);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  urls[name] = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
console.log(JSON.stringify(urls));
process.on("SIGTERM", () => process.exit(0));
