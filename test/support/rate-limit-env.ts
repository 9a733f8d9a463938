// Suites poll and fire requests far faster than a client should: test apps and server processes
// get a raised per-key limit unless a suite sets its own (test/api/rate-limit.test.ts).
export const TEST_RATE_LIMIT = { API_RATE_LIMIT: "100000", API_RATE_BURST: "100000" };
