/**
 * Words that carry no signal in a documentation question: English function words and
 * question boilerplate ("how do I", "what is the way to"). Kept small on purpose: a
 * word like "index" or "return" is never a stop-word in docs.
 */
const STOP_WORDS = new Set(
  `a about an and any are as at be been but by can could did do does doing for from had has have how i if in into is it
  its me my of on or our should so than that the their them then there these this those to was we were what when where
  which who why will with would you your use using used want need way get make possible please example not`
    .split(/\s+/)
    .filter(Boolean),
);

/** Whether a lower-cased word is a stop-word (or question boilerplate). */
export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}

/**
 * Words of quantity: they count or pick things and never name one. Neither another name for a
 * thing ("one (or more) files") nor half of a compound name ("find all files" is not `findall`).
 */
const QUANTITIES = new Set(['one', 'two', 'three', 'more', 'less', 'fewer', 'all', 'none', 'some', 'each', 'every', 'both', 'either', 'neither', 'other', 'others', 'several', 'many']);

/** Whether a lower-cased word is a word of quantity. */
export function isQuantityWord(word: string): boolean {
  return QUANTITIES.has(word);
}
