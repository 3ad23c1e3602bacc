import type { Parents, Root } from 'mdast';
import { defaultHandlers, type Info, type SafeConfig, type State, type Unsafe } from 'mdast-util-to-markdown';

/**
 * mdast-util-to-markdown's escaping, `state.safe`, runs every unsafe pattern in scope as a
 * regex over every text, link destination and title it writes, and the phrasing writer
 * writes each text twice (once to peek at its first character): most of the Markdown
 * writer's time. Most strings need no escape at all. This root handler puts a shortcut in
 * front of `state.safe` for the whole document: `returnsUnchanged` proves cheaply that safe
 * would return the string as it is, and only the rest goes through the library.
 */
export function root(node: Root, parent: Parents | undefined, state: State, info: Info): string {
  const safe = state.safe;
  state.safe = (input, config) => (input && returnsUnchanged(state, input, config) ? input : safe.call(state, input, config));
  return defaultHandlers.root(node, parent, state, info);
}

const inScopeCache = new WeakMap<Unsafe[], Map<string, Unsafe[]>>();

/**
 * Whether `state.safe(input, config)` returns `input` as it is. It does when no unsafe pattern
 * in scope matches at a character of `input` (a match marks the position of the pattern's
 * `character`; matches in the context before and after are ignored) and there is no backslash
 * to escape (in `input`, or in `config.after`, which safe looks at). Autolinks percent-encode
 * instead, so they always go the long way. Exact, not a heuristic: a test compares it with
 * `state.safe` on every string of the fixture pages' Markdown.
 */
export function returnsUnchanged(state: State, input: string, config: SafeConfig): boolean {
  if (input === '' || input.includes('\\') || (config.after ?? '').includes('\\') || state.stack.includes('autolink')) return false;
  const before = config.before ?? '';
  const value = before + input + (config.after ?? '');
  const offset = before.length;
  const end = offset + input.length;
  for (const pattern of patternsInScope(state)) {
    if (!input.includes(pattern.character)) continue;
    if (!nodeInScope(pattern.beforeNode, config.beforeNode) || !nodeInScope(pattern.afterNode, config.afterNode)) continue;
    if (matchesWithin(state.compilePattern(pattern), pattern, value, offset, end)) return false;
  }
  return true;
}

/** Whether the pattern matches at a position in [offset, end), found as state.safe finds it. */
function matchesWithin(expression: RegExp, pattern: Unsafe, value: string, offset: number, end: number): boolean {
  const from = pattern.beforeNode ? offset : 0;
  const subject = value.slice(from, pattern.afterNode ? end : undefined);
  const capturesBefore = Boolean(pattern.before || pattern.atBreak);
  // The compiled expression is global and shared with state.safe: it must be left at lastIndex 0.
  expression.lastIndex = 0;
  let found = false;
  let match: RegExpExecArray | null;
  while (!found && (match = expression.exec(subject)) !== null) {
    const position = from + match.index + (capturesBefore ? (match[1] ?? '').length : 0);
    found = position >= offset && position < end;
  }
  expression.lastIndex = 0;
  return found;
}

/** The unsafe patterns whose constructs are in scope for the current stack (what state.safe filters with patternInScope). */
function patternsInScope(state: State): Unsafe[] {
  let byStack = inScopeCache.get(state.unsafe);
  if (byStack === undefined) {
    byStack = new Map();
    inScopeCache.set(state.unsafe, byStack);
  }
  const key = state.stack.join('\u0000');
  let patterns = byStack.get(key);
  if (patterns === undefined) {
    patterns = state.unsafe.filter((pattern) => listInScope(state.stack, pattern.inConstruct, true) && !listInScope(state.stack, pattern.notInConstruct, false));
    byStack.set(key, patterns);
  }
  return patterns;
}

function listInScope(stack: readonly string[], list: Unsafe['inConstruct'], none: boolean): boolean {
  const names = typeof list === 'string' ? [list] : list;
  if (!names || names.length === 0) return none;
  return names.some((name) => stack.includes(name));
}

function nodeInScope(types: Unsafe['beforeNode'], node: SafeConfig['beforeNode']): boolean {
  if (!types) return true;
  if (!node) return false;
  return typeof types === 'string' ? types === node.type : types.includes(node.type);
}
