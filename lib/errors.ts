// The one catalog of error codes. Every error the API returns, and every error code a cell can
// carry, is listed here with its HTTP status and a default message. docs/api.md lists them all
// and test/unit/readme.test.ts keeps the two in step.

export const ERROR_CATALOG = {
  // request shape
  invalid_json: { status: 400, message: "The request body is not valid JSON." },
  validation_failed: { status: 400, message: "The request is not valid." },
  invalid_query: { status: 400, message: "A query parameter is not valid." },
  invalid_cursor: {
    status: 400,
    message: "The cursor is not one this API returned for this query; start again without a cursor.",
  },
  invalid_path: { status: 400, message: "The path is not valid." },
  malformed_request: { status: 400, message: "The request is not valid HTTP." },
  headers_too_large: { status: 431, message: "The request's headers are too large." },
  too_many_rows: { status: 400, message: "Too many rows in one request (at most 10,000)." },
  invalid_filter: { status: 400, message: "The filter is not valid." },
  invalid_formula: { status: 400, message: "The formula is not valid." },
  invalid_fill: { status: 400, message: "The column's fill is not valid." },
  invalid_run_if: {
    status: 400,
    message: "The run condition is not valid: only a generated column has one, and it cannot read the column itself.",
  },
  invalid_messages: { status: 400, message: "The messages are not valid." },
  invalid_schedule: { status: 400, message: "The schedule is not valid: its cron, timezone, every or find." },
  unsupported_media_type: { status: 415, message: "Content-Type must be application/json." },
  payload_too_large: { status: 413, message: "The request body is too large." },
  // auth
  missing_api_key: { status: 401, message: "The X-API-Key header is required." },
  invalid_api_key: { status: 401, message: "The API key is unknown or revoked." },
  invalid_session: { status: 401, message: "The session has expired or was signed out; sign in again." },
  invalid_sign_in_link: {
    status: 401,
    message:
      "The sign-in link is invalid, expired or already used; ask for a new one with `npm run cli -- sign-in-link`.",
  },
  cross_site_request: { status: 403, message: "A signed-in browser request must come from this site." },
  api_key_expired: { status: 401, message: "The API key has expired." },
  invalid_credentials: { status: 401, message: "The email or password is wrong." },
  invalid_invitation: { status: 401, message: "The invitation link is invalid, expired, revoked or already used." },
  invalid_password_reset: { status: 401, message: "The password reset link is invalid, expired or already used." },
  sso_failed: { status: 401, message: "Single sign-on did not complete; try again." },
  insufficient_scope: { status: 403, message: "This key or role may not do this." },
  base_not_in_scope: { status: 403, message: "This key is limited to other bases." },
  cannot_grant: { status: 403, message: "A key or role cannot be given more than its creator holds." },
  host_not_allowed: { status: 421, message: "This server does not answer to the host this request names." },
  // not found
  not_found: { status: 404, message: "No such endpoint." },
  base_not_found: { status: 404, message: "Base not found." },
  row_not_found: { status: 404, message: "Row not found." },
  column_not_found: { status: 404, message: "Column not found." },
  api_key_not_found: { status: 404, message: "API key not found." },
  webhook_not_found: { status: 404, message: "Webhook endpoint not found." },
  delivery_not_found: { status: 404, message: "Webhook delivery not found." },
  file_not_found: { status: 404, message: "File not found." },
  view_not_found: { status: 404, message: "View not found." },
  workspace_not_found: { status: 404, message: "Workspace not found." },
  run_not_found: { status: 404, message: "Run not found." },
  review_action_not_found: { status: 404, message: "Review action not found." },
  import_not_found: { status: 404, message: "Import not found." },
  evaluation_not_found: { status: 404, message: "Evaluation not found." },
  find_not_found: { status: 404, message: "Find not found." },
  history_entry_not_found: { status: 404, message: "No such change in this cell's history." },
  schedule_not_found: { status: 404, message: "Schedule not found." },
  member_not_found: { status: 404, message: "Member not found." },
  secret_not_found: { status: 404, message: "Secret not found." },
  invitation_not_found: { status: 404, message: "Invitation not found." },
  user_not_found: { status: 404, message: "User not found." },
  sso_not_configured: { status: 404, message: "Single sign-on is not configured (OIDC_ISSUER)." },
  method_not_allowed: { status: 405, message: "Method not allowed." },
  // structure conflicts
  dependency_cycle: { status: 409, message: "The column inputs would form a cycle." },
  duplicate_column_name: { status: 409, message: "A column with this name already exists." },
  primary_column_conflict: { status: 409, message: "A base has exactly one primary column." },
  column_in_use: { status: 409, message: "Other columns use this column as input." },
  primary_column_required: { status: 409, message: "The primary column cannot be deleted." },
  default_view: { status: 409, message: "The default view cannot be deleted." },
  not_reviewable: { status: 409, message: "This cell cannot take this review action." },
  no_steps: { status: 409, message: "Only HTTP and waterfall columns trace their steps." },
  find_in_progress: { status: 409, message: "The find is still looking; extend it once it has stopped." },
  not_revertible: { status: 409, message: "This cannot be reverted now." },
  schedule_busy: { status: 409, message: "The schedule's previous run is still running or paused." },
  duplicate_workspace: { status: 409, message: "A workspace with this name already exists." },
  already_member: { status: 409, message: "This person is already a member of the workspace." },
  last_owner: { status: 409, message: "A workspace keeps at least one owner." },
  duplicate_email: { status: 409, message: "A user with this email already exists." },
  duplicate_secret: {
    status: 409,
    message: "A secret with this name already exists; delete it first, or send replace: true.",
  },
  limit_reached: { status: 409, message: "A documented limit of the workspace or base is reached." },
  // retries (Idempotency-Key)
  idempotency_key_reused: { status: 422, message: "This Idempotency-Key was used with a different request." },
  idempotency_in_progress: {
    status: 409,
    message: "A request with this Idempotency-Key is still in progress; retry later.",
  },
  run_finished: { status: 409, message: "The run has finished; start a new run instead." },
  nothing_to_evaluate: { status: 409, message: "The column has no verified cells to evaluate on." },
  evaluation_not_finished: { status: 409, message: "The evaluation has not finished." },
  run_budget_reached: { status: 409, message: "The run has spent its credit cap; resume it with a higher maxCredits." },
  // values and types
  invalid_value: { status: 400, message: "The value is not valid for the column type." },
  unknown_column: { status: 400, message: "No column has this name." },
  unknown_column_type: { status: 400, message: "Unknown column type." },
  unknown_tool: { status: 400, message: "Unknown tool." },
  unknown_model: { status: 400, message: "Unknown model or provider." },
  value_too_long: { status: 400, message: "A cell value is at most 100,000 characters." },
  // files
  unsupported_file: { status: 415, message: "This kind of file is not supported." },
  file_too_large: { status: 413, message: "The file is too large." },
  empty_file: { status: 400, message: "The file is empty." },
  corrupt_file: { status: 400, message: "The file is encrypted or corrupt." },
  invalid_file: { status: 400, message: "The file does not parse (a line and the reason are given)." },
  // credits and providers
  insufficient_credits: { status: 402, message: "Not enough credits." },
  key_spend_cap_reached: { status: 402, message: "The API key has spent its daily credit cap." },
  weak_password: { status: 400, message: "The password is too short or too common (at least 10 characters)." },
  rate_limited: { status: 429, message: "Too many requests." },
  ai_not_configured: { status: 503, message: "No AI provider is configured." },
  ai_provider_error: { status: 502, message: "The AI provider failed." },
  search_not_configured: { status: 503, message: "Web search is not configured (SEARCH_PROVIDER)." },
  secrets_key_missing: {
    status: 503,
    message: "Workspace secrets need SECRETS_KEY on a shared PostgreSQL (docs/secrets.md).",
  },
  secret_unreadable: {
    status: 500,
    message: "A secret does not decrypt with this server's key: delete it and create it again (docs/secrets.md).",
  },
  // cell-only codes (carried by cells, never an HTTP status of their own)
  input_failed: { status: 500, message: "An input cell of this row ended in error." },
  cancelled: { status: 500, message: "The cell's run was cancelled before it finished." },
  invalid_output: { status: 500, message: "The model's answer did not fit the column type." },
  tool_not_configured: { status: 500, message: "A tool this column needs is not configured." },
  tool_failed: { status: 500, message: "A tool call failed." },
  call_limit_reached: { status: 500, message: "The cell reached its limit of model calls (AI_MAX_CALLS_PER_CELL)." },
  timeout: { status: 504, message: "The operation timed out." },
  blocked_url: { status: 400, message: "The URL is not allowed." },
  fetch_failed: { status: 502, message: "The URL could not be fetched." },
  disposable_domain: { status: 400, message: "The domain belongs to a disposable email provider." },
  request_invalid: { status: 500, message: "The column's request cannot be sent for this row." },
  provider_refused: { status: 500, message: "The provider refused the request." },
  provider_failed: { status: 500, message: "The provider failed after its retries." },
  provider_invalid_answer: { status: 500, message: "The provider's answer is not JSON the column can read." },
  // ours
  internal_error: { status: 500, message: "Something went wrong on our side." },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOG;

// Next.js bundles the runtime (built at start) apart from each route handler, so an AppError thrown
// by a runtime-built service is an instance of another copy of this class than the route's. It is
// known by a process-wide brand instead, and by a code the catalog holds.
const APP_ERROR = Symbol.for("cellwright.AppError");

export class AppError extends Error {
  readonly [APP_ERROR] = true;
  readonly code: ErrorCode;
  readonly status: number;
  readonly details?: unknown;

  constructor(code: ErrorCode, message?: string, details?: unknown) {
    super(message ?? ERROR_CATALOG[code].message);
    this.name = "AppError";
    this.code = code;
    this.status = ERROR_CATALOG[code].status;
    this.details = details;
  }

  toJSON() {
    return {
      code: this.code,
      message: this.message,
      ...(this.details === undefined ? {} : { details: this.details }),
    };
  }
}

export const appError = (code: ErrorCode, message?: string, details?: unknown) => new AppError(code, message, details);

/** An AppError made by any bundle's copy of this module (a class test would miss the other copies). */
export const isAppError = (e: unknown): e is AppError =>
  typeof e === "object" &&
  e !== null &&
  (e as { [APP_ERROR]?: unknown })[APP_ERROR] === true &&
  Object.hasOwn(ERROR_CATALOG, (e as AppError).code);
