// The public face of lib/domain/finds/ (docs/finds.md): what the API, MCP and the find worker use.
export { createFind, extendFind, type FindPolicy } from "./create.ts";
export { findView, listFinds, listCandidates, type FindView, type CandidateView } from "./view.ts";
export * from "./schemas.ts";
export { existingKeys } from "./keys.ts";
export {
  claimCandidates,
  failCandidate,
  findProgress,
  insertCandidates,
  releaseCandidate,
  type ClaimedCandidate,
} from "./candidates.ts";
export {
  chargeStep,
  claimFinds,
  finishFind,
  releaseFind,
  renewFindLease,
  retryFind,
  runStatusOf,
  saveQueries,
  type FindJob,
} from "./progress.ts";
export { addFoundRow, isSuperseded, storeVerified, type VerifiedCandidate } from "./verdicts.ts";
