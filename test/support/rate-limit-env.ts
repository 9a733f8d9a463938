// Suites poll and fire requests far faster than a client should: test apps and server processes
// get a raised per-key limit unless a suite sets its own (test/api/rate-limit.test.ts).
export const TEST_RATE_LIMIT = { API_RATE_LIMIT: "100000", API_RATE_BURST: "100000" };

// A shared PostgreSQL refuses to start without SECRETS_KEY (lib/secrets/key.ts): test apps, server
// processes and workers get this one, a fixed test key that encrypts nothing real.
export const TEST_SECRETS_KEY = { SECRETS_KEY: "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef" };
