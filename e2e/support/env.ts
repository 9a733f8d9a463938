/** The key the e2e server is started with (API_KEY seeds the "default" workspace). */
export const API_KEY = process.env.E2E_API_KEY ?? "cw_e2e_0123456789abcdefghijklmnopqrstuvwxyzABCD";
