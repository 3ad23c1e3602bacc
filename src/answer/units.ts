/** A quotable piece of a passage: one sentence of prose, one whole code block, or one whole table. */
export interface TextUnit {
  kind: 'sentence' | 'code' | 'table';
  text: string;
  /** Position in the passage, to quote units in reading order. */
  position: number;
  /**
   * The pseudo-heading the unit sits under ("Returns", "Parameters", "Example:", "Note"):
   * a short paragraph of its own that names what the next blocks are, not a sentence.
   */
  label?: string;
  /** The first unit after its label: where the label is shown when quoted. */
  opensLabel?: boolean;
}

const sentences = new Intl.Segmenter('en', { granularity: 'sentence' });
const FENCE = /^\s*(`{3,}|~{3,})/;
/** A label is a short paragraph ending without sentence punctuation ("Returns", "Syntax:"). */
const LABEL = /^[\p{Lu}][\p{L} ]{0,30}:?$/u;
const LABEL_MAX_WORDS = 3;

/**
 * Splits a Markdown passage into quotable units: sentences of paragraphs and list items,
 * whole fenced code blocks and whole tables. Headings are skipped;
 * a label paragraph is not quoted but names the units after it. A sentence never ends inside
 * inline code, a quotation or a link label, so a mark put after it is never inside one.
 */
export function splitUnits(markdown: string): TextUnit[] {
  const units: TextUnit[] = [];
  let paragraph: string[] = [];
  let fence: { marker: string; lines: string[] } | undefined;
  let label: { text: string; fresh: boolean } | undefined;
  let table: string[] = [];
  const endTable = () => {
    if (table.length > 0) push({ kind: 'table', text: table.join('\n') });
    table = [];
  };

  const push = (unit: Omit<TextUnit, 'position' | 'label' | 'opensLabel'>) => {
    const labelled = label === undefined ? {} : { label: label.text, ...(label.fresh ? { opensLabel: true } : {}) };
    if (label !== undefined) label.fresh = false;
    units.push({ ...unit, position: units.length, ...labelled });
  };
  const flush = (single = false) => {
    const text = paragraph.join(' ').replace(/\s+/g, ' ').trim();
    paragraph = [];
    if (text === '') return;
    if (single && LABEL.test(text) && text.split(' ').length <= LABEL_MAX_WORDS) {
      label = { text: text.replace(/:$/, ''), fresh: true };
      return;
    }
    for (const sentence of balancedSentences(text)) push({ kind: 'sentence', text: sentence });
  };

  let lines = 0;
  for (const line of markdown.split('\n')) {
    if (fence !== undefined) {
      if (line.trim().startsWith(fence.marker) && line.trim().replace(/[`~]/g, '') === '') {
        push({ kind: 'code', text: [...fence.lines, line.trim()].join('\n') });
        fence = undefined;
      } else {
        fence.lines.push(line);
      }
      continue;
    }
    const opening = FENCE.exec(line);
    if (opening?.[1] !== undefined) {
      endTable();
      flush(lines === 1);
      lines = 0;
      fence = { marker: opening[1], lines: [line] };
      continue;
    }
    const trimmed = line.trim();
    if (trimmed.startsWith('|')) {
      flush(lines === 1);
      lines = 0;
      table.push(trimmed);
      continue;
    }
    endTable();
    if (trimmed === '' || /^#{1,6}\s/.test(trimmed)) {
      flush(lines === 1);
      lines = 0;
      if (/^#{1,6}\s/.test(trimmed)) label = undefined;
      continue;
    }
    const item = /^([-*+]|\d+[.)])\s+(.*)$/.exec(trimmed);
    if (item !== null) {
      flush(lines === 1);
      paragraph.push(item[2] ?? '');
      lines = 2;
      continue;
    }
    paragraph.push(trimmed.replace(/^>\s?/, ''));
    lines += 1;
  }
  flush(lines === 1);
  endTable();
  if (fence !== undefined) push({ kind: 'code', text: [...fence.lines, fence.marker].join('\n') });
  return units;
}

/** The sentences of a paragraph, a segment joined to the next while it leaves code, a quotation or a link open. */
function balancedSentences(text: string): string[] {
  const out: string[] = [];
  let pending = '';
  for (const { segment } of sentences.segment(text)) {
    pending += segment;
    if (isOpen(pending)) continue;
    if (pending.trim() !== '') out.push(pending.trim());
    pending = '';
  }
  if (pending.trim() !== '') out.push(pending.trim());
  return out;
}

function isOpen(text: string): boolean {
  const count = (pattern: RegExp) => (text.match(pattern) ?? []).length;
  const outsideCode = text.replace(/`[^`]*`/g, '');
  return (
    count(/`/g) % 2 === 1 ||
    (outsideCode.match(/(?<!\\)"/g) ?? []).length % 2 === 1 ||
    (outsideCode.match(/“/g) ?? []).length > (outsideCode.match(/”/g) ?? []).length ||
    (outsideCode.match(/(?<!\\)\[/g) ?? []).length > (outsideCode.match(/(?<!\\)\]/g) ?? []).length
  );
}
