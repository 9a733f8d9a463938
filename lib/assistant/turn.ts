import { randomUUID } from "node:crypto";
import { isStepCount, streamText } from "ai";
import { inTransaction } from "../db/work.ts";
import { createBase, deleteBase, getBaseStructure } from "../domain/bases.ts";
import { loadBase } from "../domain/base-context.ts";
import { configuredProviders } from "../domain/model-spec.ts";
import { assertKeyRoom } from "../credits/key-cap.ts";
import { debit, refund } from "../credits/ledger.ts";
import { classifyError, resolveLanguageModel, type ResolvedModel } from "../engine/llm/index.ts";
import { appError, type AppError } from "../errors.ts";
import type { Runtime } from "../runtime.ts";
import { appendTurn } from "./history.ts";
import { fromResponseMessages, toModelMessages, type ChatMessage } from "./messages.ts";
import { systemPrompt } from "./prompt.ts";
import { listSecrets } from "../secrets/index.ts";
import type { ToolSession } from "./session.ts";
import { assistantTools } from "./tools.ts";

// One request to the assistant: charge, run the model with its tools, then settle. The charge is
// taken first, atomically and under an idempotency key, so concurrent requests cannot spend the
// same credits twice; when the call fails on our side (the provider, say) it is refunded.

/** Model calls per request; the last one may only answer in text. */
export const MAX_STEPS = 20;

export interface ConfigureInput {
  baseName?: string;
  baseId?: string;
  messages: ChatMessage[];
  /** The API key of the request: the turn is charged to it, within its daily cap. */
  keyId?: string | null;
}

export interface Turn {
  workspaceId: string;
  baseId: string;
  created: boolean;
  cost: number;
  chargeKey: string;
  model: ResolvedModel;
  system: string;
  request: ChatMessage[];
  session: ToolSession;
}

export type TurnOutcome =
  | { ok: true; baseId: string; messages: ChatMessage[] }
  | { ok: false; error: AppError; messages: ChatMessage[] };

const chargeReason = (created: boolean) => (created ? "configure_create" : "configure_modify");

type Rt = Pick<Runtime, "db" | "bus" | "reactions" | "config">;

/**
 * Checks what can fail before any model call: the model's configuration (503), the base (404),
 * the credits (402). A new base is created in the same transaction as the debit, so a 402 leaves
 * nothing behind.
 */
export async function startTurn(rt: Rt, workspaceId: string, input: ConfigureInput): Promise<Turn> {
  const model = resolveLanguageModel(rt.config.ai.assistantModel, rt.config);
  const created = !input.baseId;
  const cost = created ? rt.config.credits.configureCreate : rt.config.credits.configureModify;
  const chargeKey = `configure:${randomUUID()}`;
  const setup = await inTransaction(rt, async (w) => {
    const baseId = input.baseId
      ? (await loadBase(w.tx, workspaceId, input.baseId)).baseId
      : (await createBase(w, workspaceId, { baseName: input.baseName }, configuredProviders(rt.config.ai))).baseId;
    // Charged after the base exists so the ledger entry names it; a refusal rolls both back.
    if (input.keyId) await assertKeyRoom(w.tx, input.keyId, cost, { lock: true });
    const charge = await debit(w.tx, {
      keyId: input.keyId,
      workspaceId,
      amount: cost,
      reason: chargeReason(created),
      baseId,
      idempotencyKey: chargeKey,
    });
    if (!charge.ok) {
      throw appError(
        "insufficient_credits",
        `This request costs ${cost} credits; the workspace has ${charge.balance}.`,
        {
          required: cost,
          balance: charge.balance,
        },
      );
    }
    const baseCtx = await loadBase(w.tx, workspaceId, baseId);
    const secretNames = (await listSecrets(w.tx, workspaceId)).map((s) => s.name);
    return { baseId, structure: await getBaseStructure(w.tx, workspaceId, baseId), name: baseCtx.name, secretNames };
  });
  return {
    workspaceId,
    baseId: setup.baseId,
    created,
    cost,
    chargeKey,
    model,
    system: systemPrompt(setup.structure, setup.name, created, setup.secretNames),
    request: input.messages,
    session: {
      rt,
      workspaceId,
      baseId: setup.baseId,
      changed: false,
      placeholderId: created ? setup.structure.sheetColumns[0]?.id : undefined,
      confirmable: askedToDelete(input.messages),
    },
  };
}

/**
 * Runs the model. `result` streams as it happens; `done` settles once the turn is over, whether
 * or not anyone reads the stream (a client that disconnects does not cut the turn short).
 */
export function runTurn(rt: Rt, turn: Turn) {
  let failure: unknown;
  const result = streamText({
    model: turn.model.model,
    instructions: turn.system,
    messages: toModelMessages(turn.request),
    tools: assistantTools(turn.session),
    // In order, one at a time: a column created in a step may be the input of the next call.
    toolCallConcurrency: 1,
    stopWhen: isStepCount(MAX_STEPS),
    prepareStep: ({ stepNumber }) => (stepNumber >= MAX_STEPS - 1 ? { toolChoice: "none" as const } : undefined),
    maxRetries: Math.min(2, rt.config.ai.maxAttempts - 1),
    ...(rt.config.ai.timeoutMs > 0 ? { timeout: { stepMs: rt.config.ai.timeoutMs } } : {}),
    onError: ({ error }) => {
      failure ??= error;
    },
  });
  const done = (async (): Promise<TurnOutcome> => {
    await result.consumeStream({ onError: (e) => void (failure ??= e) });
    const messages = fromResponseMessages(await Promise.resolve(result.responseMessages).catch(() => []));
    return settle(rt, turn, messages, failure);
  })();
  // Nobody may be waiting for `done` (the stream's reader went away), so its failure is logged here.
  done.catch((e) => console.error("[cellwright] settling an assistant turn failed:", e));
  return { result, done };
}

async function settle(rt: Rt, turn: Turn, messages: ChatMessage[], failure: unknown): Promise<TurnOutcome> {
  const { workspaceId, baseId } = turn;
  let storeFailed = false;
  if (failure === undefined) {
    try {
      await inTransaction(rt, ({ tx }) => appendTurn(tx, baseId, turn.request, messages));
      return { ok: true, baseId, messages: [...turn.request, ...messages] };
    } catch (e) {
      // The turn could not be stored (its base was deleted meanwhile, say): then it is not
      // charged either. A request that fails is never paid for.
      failure = e;
      storeFailed = true;
    }
  }
  // The call failed on our side: no charge. A new base nothing was done to is removed again;
  // otherwise the changes made so far stay (each was committed) and so does their history.
  const keep = !turn.created || turn.session.changed;
  const gone = await inTransaction(rt, async (w) => {
    await refund(w.tx, {
      workspaceId,
      amount: turn.cost,
      reason: chargeReason(turn.created),
      baseId,
      idempotencyKey: turn.chargeKey,
    });
    if ((await w.tx.base.count({ where: { id: baseId, workspaceId } })) === 0) return true;
    if (!keep) await deleteBase(w, workspaceId, baseId);
    // A history that could not be stored once is not tried again here: the refund must commit.
    else if (turn.session.changed && !storeFailed) await appendTurn(w.tx, baseId, turn.request, messages);
    return false;
  });
  if (gone)
    return {
      ok: false,
      error: appError(
        "base_not_found",
        "The base was deleted while the assistant was working on it; nothing was charged.",
      ),
      messages,
    };
  return { ok: false, error: asHttpError(failure, keep ? baseId : undefined), messages };
}

/** Provider trouble is 502 ai_provider_error (503 when not configured); the client is never blamed. */
function asHttpError(e: unknown, baseId: string | undefined): AppError {
  const c = classifyError(e);
  const where = baseId ? { baseId } : {};
  if (c.code === "ai_not_configured") return appError("ai_not_configured", c.message, where);
  if (c.code === "internal_error") {
    console.error("[cellwright] assistant turn failed:", e);
    return appError("internal_error", undefined, where);
  }
  const retryAfterSeconds = c.retryAfterMs === undefined ? undefined : Math.max(1, Math.ceil(c.retryAfterMs / 1000));
  return appError("ai_provider_error", c.message, {
    ...where,
    reason: c.code,
    ...(retryAfterSeconds ? { retryAfterSeconds } : {}),
  });
}

/** Columns whose deletion an earlier turn of this conversation put to the user. */
function askedToDelete(messages: readonly ChatMessage[]): Set<string> {
  const ids = new Set<string>();
  for (const m of messages) {
    if (m.role !== "tool" || typeof m.content === "string") continue;
    for (const part of m.content) {
      const r = part.result as { needsConfirmation?: unknown; columnId?: unknown } | null;
      if (r?.needsConfirmation === true && typeof r.columnId === "string") ids.add(r.columnId);
    }
  }
  return ids;
}
