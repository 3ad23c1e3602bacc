/** A count with its noun in the right number: "1 page", "0 pages", "2 pages", "1 match" / "2 matches" with the plural given. */
export function plural(count: number, noun: string, nounPlural = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : nounPlural}`;
}
