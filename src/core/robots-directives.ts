/** What robots directives (a page's `<meta name="robots">`, a response's `X-Robots-Tag`) ask of a crawler. */
export interface RobotsDirectives {
  noindex: boolean;
  nofollow: boolean;
}

/** Reads directives already split and lower-cased: `noindex`, `nofollow`, and `none` for both; any other says nothing here. */
export function robotsDirectives(directives: Iterable<string>): RobotsDirectives {
  const asked = new Set(directives);
  const none = asked.has('none');
  return { noindex: none || asked.has('noindex'), nofollow: none || asked.has('nofollow') };
}
