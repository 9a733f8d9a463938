// The quality spec's model, shared by the fake LLM server (which answers with it) and the spec
// (which knows from it what is right). A column whose instructions carry a [quality-vN] tag is
// answered per row "Lead NN": version 1 is wrong on every fourth row, with low confidence there;
// version 2 is right on those, and wrong on the rows ending in 3. Plain erasable TypeScript:
// Node runs it inside the fake server.

export const V1 = "The lead's sector. [quality-v1]";
export const V2 = "The lead's sector; niche companies get their niche. [quality-v2]";

export const leadName = (i: number) => `Lead ${String(i).padStart(2, "0")}`;

/** What a reviewer knows each row's value to be. */
export const truth = (i: number) => (i % 4 === 0 ? `Niche ${i}` : `Sector ${i}`);

/** Version 1's confidence: its wrong answers (every fourth row) are its least sure. */
export const V1_CONFIDENCE = [0.55, 0.95, 0.85, 0.65] as const;

export function answer(version: number, i: number): { value: string; confidenceScore: number } {
  if (version === 1) return { value: `Sector ${i}`, confidenceScore: V1_CONFIDENCE[i % 4] };
  return i % 10 === 3 ? { value: `Unknown ${i}`, confidenceScore: 0.6 } : { value: truth(i), confidenceScore: 0.9 };
}

/** The scripted answer for a cell prompt, or undefined when it is not the quality spec's. */
export function qualityAnswer(prompt: string): { value: string; confidenceScore: number } | undefined {
  const version = /\[quality-v(\d)\]/.exec(prompt)?.[1];
  // The first "Company" is the row's own input; verified examples of other rows come after it.
  const row = /"Company": "Lead (\d+)"/.exec(prompt)?.[1];
  if (!version || !row) return undefined;
  return answer(Number(version), Number(row));
}
