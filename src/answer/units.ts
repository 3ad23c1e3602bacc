/** A quotable piece of a passage: one sentence of prose, or one whole code block. */
export interface TextUnit {
  kind: 'sentence' | 'code';
  text: string;
  /** Position in the passage, to quote units in reading order. */
  position: number;
}

const sentences = new Intl.Segmenter('en', { granularity: 'sentence' });
const FENCE = /^\s*(`{3,}|~{3,})/;

/**
 * Splits a Markdown passage into quotable units: sentences of paragraphs and list items,
 * and whole fenced code blocks. Headings and table rows are not sentences and are skipped.
 */
export function splitUnits(markdown: string): TextUnit[] {
  const units: TextUnit[] = [];
  let paragraph: string[] = [];
  let fence: { marker: string; lines: string[] } | undefined;

  const flush = () => {
    const text = paragraph.join(' ').replace(/\s+/g, ' ').trim();
    paragraph = [];
    if (text === '') return;
    for (const { segment } of sentences.segment(text)) {
      const sentence = segment.trim();
      if (sentence !== '') units.push({ kind: 'sentence', text: sentence, position: units.length });
    }
  };

  for (const line of markdown.split('\n')) {
    if (fence !== undefined) {
      if (line.trim().startsWith(fence.marker) && line.trim().replace(/[`~]/g, '') === '') {
        units.push({ kind: 'code', text: [...fence.lines, line.trim()].join('\n'), position: units.length });
        fence = undefined;
      } else {
        fence.lines.push(line);
      }
      continue;
    }
    const opening = FENCE.exec(line);
    if (opening?.[1] !== undefined) {
      flush();
      fence = { marker: opening[1], lines: [line] };
      continue;
    }
    const trimmed = line.trim();
    if (trimmed === '' || /^#{1,6}\s/.test(trimmed) || trimmed.startsWith('|')) {
      flush();
      continue;
    }
    const item = /^([-*+]|\d+[.)])\s+(.*)$/.exec(trimmed);
    if (item !== null) {
      flush();
      paragraph.push(item[2] ?? '');
      continue;
    }
    paragraph.push(trimmed.replace(/^>\s?/, ''));
  }
  flush();
  if (fence !== undefined) units.push({ kind: 'code', text: [...fence.lines, fence.marker].join('\n'), position: units.length });
  return units;
}
