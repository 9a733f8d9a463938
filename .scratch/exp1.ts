import { generateText, Output, tool, isStepCount, hasToolCall, APICallError, NoObjectGeneratedError, NoOutputGeneratedError } from "ai";
import { z } from "zod";
import { startFakeLlm } from "../test/support/fake-llm.ts";
import { resolveLanguageModel } from "../lib/engine/llm/resolve-model.ts";
import { loadConfig } from "../lib/config.ts";

const llm = await startFakeLlm();
const cfg = loadConfig({ OPENAI_BASE_URL: llm.baseUrl, ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: llm.anthropicBaseUrl });
const schema = z.object({ value: z.string(), sources: z.array(z.string()), confidenceScore: z.number() });
const m = resolveLanguageModel("openai:gpt-4.1-mini", cfg);
const r = await generateText({ model: m.model, instructions: "sys", prompt: "Company: Acme", output: Output.object({ schema }), maxRetries: 0 });
console.log("1", r.output, r.usage.inputTokens, r.usage.outputTokens);
console.log(JSON.stringify(llm.requests[0].body).slice(0, 600));

// tool loop
let calls = 0;
llm.enqueue({ toolCalls: [{ name: "lookup", args: { q: "x" } }] }, { toolCalls: [{ name: "lookup", args: { q: "y" } }] });
const r2 = await generateText({ model: m.model, prompt: "Company: Acme", output: Output.object({ schema }), maxRetries: 0,
  tools: { lookup: tool({ description: "d", inputSchema: z.object({ q: z.string() }), execute: async ({ q }) => { calls++; return { found: q }; } }) },
  stopWhen: isStepCount(3), prepareStep: ({ stepNumber }) => stepNumber === 2 ? { toolChoice: "none" } : {} });
console.log("2", r2.output, calls, r2.toolCalls.length, r2.steps.length);
console.log(llm.requests.slice(-3).map(r => [r.toolChoice, r.messages.length, r.responseFormat?.type]));

// 429
llm.enqueue({ status: 429, retryAfterSeconds: 3 });
try { await generateText({ model: m.model, prompt: "x", maxRetries: 0 }); } catch (e: any) { console.log("3", e.constructor.name, e.name, APICallError.isInstance(e), e.statusCode, e.responseHeaders?.["retry-after"], e.isRetryable, e.message); }
// rejected
llm.enqueue({ rejectResponseFormat: true });
try { await generateText({ model: m.model, prompt: "x", output: Output.object({ schema }), maxRetries: 0 }); } catch (e: any) { console.log("4", e.name, e.statusCode, e.message, e.responseBody); }
// malformed
llm.enqueue({ malformed: true });
try { await generateText({ model: m.model, prompt: "x", output: Output.object({ schema }), maxRetries: 0 }); } catch (e: any) { console.log("5", e.name, NoObjectGeneratedError.isInstance(e), e.text, e.cause?.name); }
// fenced
llm.enqueue({ json: { value: "v", sources: [], confidenceScore: 1 }, fenced: true });
try { const r = await generateText({ model: m.model, prompt: "x", output: Output.object({ schema }), maxRetries: 0 }); console.log("6ok", r.output) } catch (e: any) { console.log("6", e.name, e.text); }
// hang
llm.enqueue({ hang: true });
try { await generateText({ model: m.model, prompt: "x", maxRetries: 0, abortSignal: AbortSignal.timeout(200) }); } catch (e: any) { console.log("7", e.name, e.constructor.name, e.message, e.cause?.name); }
// connection refused
const bad = resolveLanguageModel("openai:x", loadConfig({ OPENAI_BASE_URL: "http://127.0.0.1:1/v1" }));
try { await generateText({ model: bad.model, prompt: "x", maxRetries: 0 }); } catch (e: any) { console.log("8", e.name, e.isRetryable, e.statusCode, e.message, e.cause?.code, e.cause?.cause?.code); }
// anthropic
const a = resolveLanguageModel("anthropic:claude-sonnet-4-5", cfg);
const r3 = await generateText({ model: a.model, instructions: "sys", prompt: "Company: Acme", output: Output.object({ schema }), maxRetries: 0 });
console.log("9", r3.output, JSON.stringify(llm.requests.at(-1)!.body).slice(0, 500));
const a2 = resolveLanguageModel("anthropic:my-proxy-model", cfg);
const r4 = await generateText({ model: a2.model, instructions: "sys", prompt: "Company: Acme", output: Output.object({ schema }), maxRetries: 0 });
console.log("10", r4.output, JSON.stringify(llm.requests.at(-1)!.body).slice(0, 700));
await llm.close();
