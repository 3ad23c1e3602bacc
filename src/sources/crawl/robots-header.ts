import { robotsDirectives, type RobotsDirectives } from '../../core/robots-directives.js';

/** Directives that carry a value after a colon: not a robot's name before its directives. */
const VALUED = new Set(['unavailable_after', 'max-snippet', 'max-image-preview', 'max-video-preview']);

/**
 * Reads `X-Robots-Tag`, the header a server sends for what `<meta name="robots">` says in a
 * page. Directives after a robot's name (`otherbot: noindex`) apply to that robot only;
 * `citedocs: noindex` (the product token of `userAgent`) to this one. Repeated headers arrive
 * joined by commas.
 */
export function robotsHeader(value: string | null, userAgent: string): RobotsDirectives {
  const self = userAgent.trim().split(/[\s/]/)[0]?.toLowerCase() ?? '';
  const ours: string[] = [];
  let robot: string | undefined;
  for (const part of value?.split(',') ?? []) {
    let directive = part.trim().toLowerCase();
    const named = /^([a-z0-9_-]+)\s*:\s*(.*)$/.exec(directive);
    if (named !== null && !VALUED.has(named[1] as string)) {
      robot = named[1];
      directive = (named[2] as string).trim();
    }
    if (robot === undefined || robot === self) ours.push(directive);
  }
  return robotsDirectives(ours);
}
