import { Text, type AnyNode, type Document, type Element } from 'domhandler';

/** Deeper than this, no documentation is structured: what is below is kept as its text. */
export const MAX_NESTING = 256;
/** Longer than this, a "word" is data (a base64 blob, a minified line), not something anyone searches. */
export const MAX_WORD_CHARS = 2_000;

export interface LimitsApplied {
  /** Elements below MAX_NESTING whose markup was flattened to text. */
  flattened: number;
  /** Words cut to MAX_WORD_CHARS. */
  wordsCut: number;
}

/**
 * Makes a parsed page safe for the recursive stages after it (serialising, Markdown
 * conversion, regular expressions): markup nested deeper than MAX_NESTING becomes its text,
 * and words longer than MAX_WORD_CHARS are cut. Iterative, linear in the size of the page.
 */
export function applyLimits(document: Document): LimitsApplied {
  const applied: LimitsApplied = { flattened: 0, wordsCut: 0 };
  const stack: { node: AnyNode; depth: number }[] = document.children.map((node) => ({ node, depth: 1 }));
  while (stack.length > 0) {
    const { node, depth } = stack.pop() as { node: AnyNode; depth: number };
    if (node.type === 'text') {
      const cut = cutLongWords(node.data);
      if (cut !== node.data) {
        node.data = cut;
        applied.wordsCut += 1;
      }
      continue;
    }
    if (!('children' in node)) continue;
    const element = node as Element;
    if (depth >= MAX_NESTING && element.children.some((child) => child.type === 'tag')) {
      flatten(element);
      applied.flattened += 1;
    }
    for (const child of element.children) stack.push({ node: child, depth: depth + 1 });
  }
  return applied;
}

/** Replaces an element's descendants by one text node holding their text. */
function flatten(element: Element): void {
  const parts: string[] = [];
  const stack: AnyNode[] = [...element.children].reverse();
  while (stack.length > 0) {
    const node = stack.pop() as AnyNode;
    if (node.type === 'text') parts.push(node.data);
    else if ('children' in node && node.type === 'tag' && node.name !== 'script' && node.name !== 'style') {
      for (let index = node.children.length - 1; index >= 0; index -= 1) stack.push(node.children[index] as AnyNode);
    }
  }
  const text = new Text(cutLongWords(parts.join(' ')));
  text.parent = element;
  element.children = [text];
}

function cutLongWords(text: string): string {
  if (text.length <= MAX_WORD_CHARS) return text;
  // A linear scan, not a regular expression: runs of millions of characters are exactly the input.
  let result = '';
  let runStart = 0;
  let cut = false;
  for (let index = 0; index <= text.length; index += 1) {
    const code = index < text.length ? text.charCodeAt(index) : 32;
    if (code === 32 || code === 10 || code === 9 || code === 13 || code === 12) {
      const run = index - runStart;
      if (run > MAX_WORD_CHARS) {
        result += `${text.slice(runStart, runStart + MAX_WORD_CHARS)}…`;
        cut = true;
      } else result += text.slice(runStart, index);
      if (index < text.length) result += text[index];
      runStart = index + 1;
    }
  }
  return cut ? result : text;
}
