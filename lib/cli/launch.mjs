// The entry of `npm start` and `npm run worker`: `node lib/cli/launch.mjs start|worker`. Node 22.18
// and later strip TypeScript's types themselves, so the server is one process with nothing in
// front. Earlier Node 22 releases cannot, and get tsx's loader registered in this same process.
if (!process.features.typescript) {
  const { register } = await import("tsx/esm/api");
  register();
}
const entries = { start: "./start.ts", worker: "./worker.ts", "embedded-template": "./embedded-template.ts" };
const entry = entries[process.argv[2]];
if (!entry) {
  console.error(`usage: node lib/cli/launch.mjs ${Object.keys(entries).join("|")}`);
  process.exit(64);
}
process.argv.splice(2, 1);
await import(entry);
