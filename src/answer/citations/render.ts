import type { Citation } from '../../core/types.js';
import type { LinkIndex } from './link-index.js';
import { findAnchor, resolveLink, withAnchor, type LinkContext, type LinkVerdict } from './resolve-link.js';
import { joinPieces } from './join.js';
import { tokenize, type Token } from './tokenize.js';

/** A selected passage as the answer cites it: `[n]`; `url` is page#anchor as selected. */
export interface Source {
  n: number;
  url: string;
  title: string;
}

export interface CitationResult {
  text: string;
  citations: Citation[];
  warnings: string[];
}

type CheckedSource = { ok: true; url: string; pageUrl: string; anchor?: string; title: string; warning?: string } | { ok: false; warning: string };

/** Citation numbers given so far (in order of first use) and the warnings so far. */
interface Numbering {
  numbers: Map<string, number>;
  citations: Citation[];
  warnings: string[];
  seen: Set<string>;
  /** False for a trial render of an unfinished sentence: its warnings come when it is finished. */
  record: boolean;
}

interface Environment {
  index: LinkIndex;
  sources: Map<number, CheckedSource>;
  selected: string[];
  base: string | undefined;
  verdicts: Map<string, LinkVerdict>;
}

interface Rendered {
  pieces: string[];
  /** Per token: the last token its piece depends on; Infinity when that is not known yet. */
  dependsOn: number[];
}

export interface SentenceRenderer {
  /** The output of a complete sentence; numbers its citations and records its warnings. */
  commit(tokens: readonly Token[]): Promise<string>;
  /** The start of an unfinished sentence's output that no text after it can change. */
  preview(tokens: readonly Token[]): Promise<string>;
  citations(): Citation[];
  warnings(): string[];
}

export function createSentenceRenderer(sources: readonly Source[], index: LinkIndex): SentenceRenderer {
  // The sources are checked against the index once, before the first sentence is rendered.
  let checking: Promise<Environment> | undefined;
  const environmentOf = (): Promise<Environment> =>
    (checking ??= (async () => {
      const checked = new Map<number, CheckedSource>();
      for (const source of sources) if (!checked.has(source.n)) checked.set(source.n, await checkSource(source, index));
      const selected = [...new Set([...checked.values()].flatMap((source) => (source.ok ? [source.pageUrl] : [])))];
      return { index, sources: checked, selected, base: sources[0]?.url, verdicts: new Map() };
    })());
  const numbering: Numbering = { numbers: new Map(), citations: [], warnings: [], seen: new Set(), record: true };
  return {
    async commit(tokens) {
      return joinPieces(tokens, (await renderSentence(tokens, numbering, await environmentOf())).pieces);
    },
    async preview(tokens) {
      const trial: Numbering = { numbers: new Map(numbering.numbers), citations: [...numbering.citations], warnings: [], seen: numbering.seen, record: false };
      const rendered = await renderSentence(tokens, trial, await environmentOf());
      return joinPieces(tokens, rendered.pieces, stableCount(tokens, rendered));
    },
    citations: () => [...numbering.citations],
    warnings: () => [...numbering.warnings],
  };
}

function renderSentence(tokens: readonly Token[], numbering: Numbering, environment: Environment): Promise<Rendered> {
  const cited = tokens.flatMap((token) =>
    token.kind === 'marker' ? token.numbers.flatMap((n) => { const source = environment.sources.get(n); return source?.ok === true ? [source.pageUrl] : []; }) : [],
  );
  return renderTokens(tokens, numbering, environment, { cited: [...new Set(cited)], selected: environment.selected });
}

async function renderTokens(tokens: readonly Token[], numbering: Numbering, environment: Environment, context: LinkContext): Promise<Rendered> {
  const pieces: string[] = [];
  const dependsOn: number[] = [];
  for (const [index, token] of tokens.entries()) {
    const { piece, contextual } = await renderToken(token, numbering, environment, context);
    pieces.push(piece);
    dependsOn.push(contextual || token.kind === 'incomplete' ? Infinity : index);
  }
  const removed = (index: number): boolean => {
    const token = tokens[index];
    return token !== undefined && token.kind !== 'space' && token.raw !== '' && pieces[index] === '';
  };
  // A space before something removed goes with it, unless a word follows: "foo [9]." → "foo.", "foo [9]bar" → "foo bar".
  tokens.forEach((token, index) => {
    if (token.kind !== 'space') return;
    // Whether a space ends the sentence depends on the token after it (a marker or not).
    if (index + 1 >= tokens.length || token.raw.includes('\n')) {
      dependsOn[index] = index + 1 >= tokens.length ? Infinity : index + 1;
      return;
    }
    if (!removed(index + 1)) {
      dependsOn[index] = Math.max(index + 1, dependsOn[index + 1] ?? Infinity);
      return;
    }
    let after = index + 2;
    while (after < tokens.length && removed(after)) after += 1;
    const following = tokens[after];
    const keep = following !== undefined && following.kind !== 'space' && !/^[.,;:!?)\]}]/.test(pieces[after] ?? '');
    if (!keep) pieces[index] = '';
    dependsOn[index] = following === undefined ? Infinity : Math.max(after, ...dependsOn.slice(index + 1, after + 1));
  });
  return { pieces, dependsOn };
}

async function renderToken(token: Token, numbering: Numbering, environment: Environment, context: LinkContext): Promise<{ piece: string; contextual: boolean }> {
  switch (token.kind) {
    case 'marker':
      return { piece: renderMarker(token.numbers, numbering, environment), contextual: false };
    case 'url':
    case 'autolink': {
      const verdict = await resolve(token.url, environment, context);
      if (!verdict.ok) {
        warn(numbering, `Removed ${token.url}: ${verdict.reason}`);
        return { piece: '', contextual: verdict.contextual };
      }
      if (verdict.note !== undefined) warn(numbering, verdict.note);
      const piece = token.kind === 'autolink' ? `<${verdict.url}>` : token.wrapped ? `(${verdict.url})` : verdict.url;
      return { piece, contextual: verdict.contextual };
    }
    case 'link':
      return renderLink(token, numbering, environment, context);
    default:
      return { piece: token.raw, contextual: false };
  }
}

async function renderLink(token: Extract<Token, { kind: 'link' }>, numbering: Numbering, environment: Environment, context: LinkContext): Promise<{ piece: string; contextual: boolean }> {
  const absolute = absolutise(token.destination, environment.base);
  const verdict: LinkVerdict = absolute === undefined
    ? { ok: false, reason: environment.base === undefined ? 'a relative link, and no source to resolve it against.' : 'not a URL.', contextual: false }
    : await resolve(absolute, environment, context);
  if (verdict.ok && verdict.note !== undefined) warn(numbering, verdict.note);
  if (!verdict.ok) warn(numbering, `Unlinked ${token.destination === '' ? `[${token.label}]()` : token.destination}: ${verdict.reason}`);
  let label = verdict.ok && token.label.trim() === token.destination.trim() ? verdict.url : undefined;
  let contextual = verdict.contextual;
  if (label === undefined) {
    const labelTokens = tokenize(token.label, true);
    const rendered = await renderTokens(labelTokens, numbering, environment, context);
    label = joinPieces(labelTokens, rendered.pieces);
    contextual ||= rendered.dependsOn.some((last, index) => last === Infinity && labelTokens[index]?.kind !== 'space');
  }
  if (!verdict.ok) return { piece: label, contextual };
  // A title is free text: one naming a URL would slip an unchecked link past the check.
  const title = /https?:\/\//i.test(token.title) ? '' : token.title;
  return { piece: `${token.image ? '!' : ''}[${label}](${verdict.url}${title})`, contextual };
}

function renderMarker(numbers: readonly number[], numbering: Numbering, environment: Environment): string {
  const renumbered: number[] = [];
  for (const n of numbers) {
    const source = environment.sources.get(n);
    if (source === undefined) {
      warn(numbering, `Dropped [${n}]: there is no source ${n} (the sources are ${[...environment.sources.keys()].join(', ') || 'none'}).`);
      continue;
    }
    if (!source.ok) {
      warn(numbering, source.warning);
      continue;
    }
    if (source.warning !== undefined) warn(numbering, source.warning);
    let number = numbering.numbers.get(source.url);
    if (number === undefined) {
      number = numbering.numbers.size + 1;
      numbering.numbers.set(source.url, number);
      numbering.citations.push({ n: number, url: source.url, ...(source.anchor === undefined ? {} : { anchor: source.anchor }), title: source.title });
    }
    if (!renumbered.includes(number)) renumbered.push(number);
  }
  return renumbered.length === 0 ? '' : `[${renumbered.join(', ')}]`;
}

async function checkSource(source: Source, index: LinkIndex): Promise<CheckedSource> {
  const hashAt = source.url.indexOf('#');
  const page = hashAt === -1 ? source.url : source.url.slice(0, hashAt);
  const fragment = hashAt === -1 ? '' : source.url.slice(hashAt + 1);
  const pageUrl = await index.resolvePage(page);
  if (pageUrl === undefined) return { ok: false, warning: `Dropped [${source.n}]: its source ${source.url} is not an indexed page.` };
  if (fragment === '') return { ok: true, url: pageUrl, pageUrl, title: source.title };
  const anchor = findAnchor(await index.anchorsOf(pageUrl), fragment);
  if (anchor !== undefined) return { ok: true, url: withAnchor(pageUrl, anchor), pageUrl, anchor, title: source.title };
  return { ok: true, url: pageUrl, pageUrl, title: source.title, warning: `Removed #${fragment} from source [${source.n}] ${pageUrl}: the page has no such anchor.` };
}

async function resolve(url: string, environment: Environment, context: LinkContext): Promise<LinkVerdict> {
  const key = `${url}\n${context.cited.join('\n')}`;
  let verdict = environment.verdicts.get(key);
  if (verdict === undefined) {
    verdict = await resolveLink(url, environment.index, context);
    environment.verdicts.set(key, verdict);
  }
  return verdict;
}

/** A link destination as an absolute URL: relative ones against the first source's URL. */
function absolutise(destination: string, base: string | undefined): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(destination)) return destination;
  if (destination === '' || base === undefined) return undefined;
  try {
    return new URL(destination, base).href;
  } catch {
    return undefined;
  }
}

function warn(numbering: Numbering, warning: string): void {
  if (!numbering.record || numbering.seen.has(warning)) return;
  numbering.seen.add(warning);
  numbering.warnings.push(warning);
}

/** Tokens at the start whose pieces depend only on tokens before the last one. */
function stableCount(tokens: readonly Token[], rendered: Rendered): number {
  const settled = tokens.length - 1;
  let count = 0;
  while (count < settled && (rendered.dependsOn[count] ?? Infinity) < settled) count += 1;
  return count;
}
