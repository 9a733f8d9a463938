// OWASP's guard against CSV/formula injection: a spreadsheet runs a cell that begins with one of
// these as a formula (or, with tab and CR, shifts it into one), so free text gets a leading quote.
const FORMULA_START = /^[=+\-@\t\r]/;

export const guardFormula = (text: string): string => (FORMULA_START.test(text) ? `'${text}` : text);
