/**
 * Operators as terms: an operator standing alone, two to four symbols (`||`, `//`, `<=>`, `:=`,
 * `??`, `=~`, `**=`), is what a question about one names and what a doc that explains it writes
 * in code (`EXPR1 // EXPR2`). Alone means between spaces, brackets or quotes, or before a comma
 * or a full stop that ends a clause; a run of dots alone is an ellipsis, not one.
 */
const OPERATOR = /(?<=^|[\s([{'"`])[!%&*+\-./:<=>?@^|~]{2,4}(?=$|[\s)\]},;'"`]|[.?!:](?:\s|$))/gu;
const ELLIPSIS = /^\.+$/;

/** The operators standing alone in a text, each as written (`||`, `//`), appended to `into`. */
export function operatorTerms(text: string, into: string[] = []): string[] {
  for (const match of text.matchAll(OPERATOR)) if (!ELLIPSIS.test(match[0])) into.push(match[0]);
  return into;
}

/** An arrow or a dash, as prose writes them ("bytes -> str", "by value -- largest first"): an operator only when quoted. */
const ARROW_OR_DASH = /^(?:-{2,3}>?|-?>|={1,2}>|<-{1,2}|<-?>)$/;

export const isProseArrow = (operator: string): boolean => ARROW_OR_DASH.test(operator);

/** A term that is an operator (symbols only), not a word's or a name's. */
export const isOperatorTerm = (term: string): boolean => /^[!%&*+\-./:<=>?@^|~]+$/.test(term);
