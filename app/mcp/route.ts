import { route } from "@/lib/http/respond";
import { handleMcp, handlersOf } from "@/lib/mcp/http";
import * as bases from "../api/v1/bases/route";
import * as base from "../api/v1/bases/[baseId]/route";
import * as structure from "../api/v1/bases/[baseId]/base-structure/route";
import * as rows from "../api/v1/bases/[baseId]/rows/route";
import * as row from "../api/v1/bases/[baseId]/rows/[rowId]/route";
import * as addRows from "../api/v1/bases/[baseId]/add-rows/route";
import * as updateRows from "../api/v1/bases/[baseId]/update-rows/route";
import * as deleteRows from "../api/v1/bases/[baseId]/delete-rows/route";
import * as columns from "../api/v1/bases/[baseId]/columns/route";
import * as column from "../api/v1/bases/[baseId]/columns/[columnId]/route";
import * as run from "../api/v1/bases/[baseId]/run/route";
import * as estimate from "../api/v1/bases/[baseId]/run/estimate/route";
import * as configure from "../api/v1/bases/ai-configure-base/route";
import * as runById from "../api/v1/runs/[runId]/route";
import * as cancelRun from "../api/v1/runs/[runId]/cancel/route";
import * as queryRows from "../api/v1/bases/[baseId]/rows/query/route";
import * as review from "../api/v1/bases/[baseId]/review/route";
import * as quality from "../api/v1/bases/[baseId]/columns/[columnId]/quality/route";
import * as steps from "../api/v1/bases/[baseId]/columns/[columnId]/steps/route";
import * as fillPreview from "../api/v1/bases/[baseId]/fill-preview/route";
import * as evaluate from "../api/v1/bases/[baseId]/columns/[columnId]/evaluate/route";
import * as evaluation from "../api/v1/evaluations/[evaluationId]/route";
import * as members from "../api/v1/members/route";
import * as member from "../api/v1/members/[userId]/route";
import * as invitations from "../api/v1/invitations/route";
import * as invitation from "../api/v1/invitations/[invitationId]/route";
import * as audit from "../api/v1/audit/route";
import * as secrets from "../api/v1/secrets/route";
import * as secret from "../api/v1/secrets/[name]/route";
import * as finds from "../api/v1/bases/[baseId]/finds/route";
import * as find from "../api/v1/bases/[baseId]/finds/[findId]/route";
import * as extendFind from "../api/v1/bases/[baseId]/finds/[findId]/extend/route";
import * as findCandidates from "../api/v1/bases/[baseId]/finds/[findId]/candidates/route";
import * as schedules from "../api/v1/bases/[baseId]/schedules/route";
import * as triggerSchedule from "../api/v1/bases/[baseId]/schedules/[scheduleId]/trigger/route";

// The MCP server (lib/mcp). Its tools call these API handlers in process; a tool for a new
// endpoint needs its route module here and its entry in lib/mcp/tools.ts (or people-tools.ts, secrets-tools.ts, find-tools.ts, schedule-tools.ts).
const handlers = handlersOf([
  bases,
  base,
  structure,
  rows,
  row,
  addRows,
  updateRows,
  deleteRows,
  columns,
  column,
  run,
  estimate,
  configure,
  runById,
  cancelRun,
  queryRows,
  review,
  quality,
  steps,
  fillPreview,
  evaluate,
  evaluation,
  members,
  member,
  invitations,
  invitation,
  audit,
  secrets,
  secret,
  finds,
  find,
  extendFind,
  findCandidates,
  schedules,
  triggerSchedule,
]);

const mcp = route(async ({ req, rt }) => handleMcp(rt, req, handlers), { public: true });

export { mcp as GET, mcp as POST, mcp as DELETE };
