// The provider layer: model specs, AI SDK models for a spec, one cell's structured model call,
// and the error classification the engine's retry loop relies on.
export {
  parseModelSpec,
  formatModelSpec,
  DEFAULT_MODEL_SPEC,
  PROVIDERS,
  type ModelSpec,
  type ProviderName,
} from "../../domain/model-spec.ts";
export { resolveLanguageModel, type ResolvedModel } from "./resolve-model.ts";
export {
  generateCellAnswer,
  FINAL_ANSWER_TOOL,
  type CellAnswerRequest,
  type CellAnswer,
} from "./generate-cell-answer.ts";
export { classifyError, parseRetryAfter, type ErrorClass } from "./classify-error.ts";
export { extractJson, forgetStructuredModes, type StructuredMode } from "./structured-output.ts";
