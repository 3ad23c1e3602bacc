/** A score as reported: four decimals, so output is stable and readable. */
export function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
