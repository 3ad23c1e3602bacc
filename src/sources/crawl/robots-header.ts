/** What an `X-Robots-Tag` response header asks of this crawler. */
export interface RobotsHeader {
  noindex: boolean;
  nofollow: boolean;
}

/** Directives that carry a value after a colon: not a robot's name before its directives. */
const VALUED = new Set(['unavailable_after', 'max-snippet', 'max-image-preview', 'max-video-preview']);

/**
 * Reads `X-Robots-Tag` (`noindex`, `nofollow`, `none`), the header a server sends for what
 * `<meta name="robots">` says in a page. Directives after a robot's name (`otherbot: noindex`)
 * apply to that robot only; `citedocs: noindex` (the product token of `userAgent`) to this one.
 * Repeated headers arrive joined by commas.
 */
export function robotsHeader(value: string | null, userAgent: string): RobotsHeader {
  const result: RobotsHeader = { noindex: false, nofollow: false };
  if (value === null) return result;
  const self = userAgent.trim().split(/[\s/]/)[0]?.toLowerCase() ?? '';
  let robot: string | undefined;
  for (const part of value.split(',')) {
    let directive = part.trim().toLowerCase();
    const named = /^([a-z0-9_-]+)\s*:\s*(.*)$/.exec(directive);
    if (named !== null && !VALUED.has(named[1] as string)) {
      robot = named[1];
      directive = (named[2] as string).trim();
    }
    if (robot !== undefined && robot !== self) continue;
    if (directive === 'noindex' || directive === 'none') result.noindex = true;
    if (directive === 'nofollow' || directive === 'none') result.nofollow = true;
  }
  return result;
}
