import { describe, expect, it } from 'vitest';
import { splitUnits } from './units.js';

describe('splitUnits', () => {
  it('splits prose into sentences, keeps code blocks and tables whole and skips headings', () => {
    const units = splitUnits('## Heading\n\nFirst sentence here. Second one, e.g. with an abbreviation.\n\n- A list item.\n\n```sql\nCREATE INDEX i ON t (c);\n\nSELECT 1;\n```\n\n| a | b |\n| --- | --- |');
    expect(units.map((unit) => [unit.kind, unit.text])).toEqual([
      ['sentence', 'First sentence here.'],
      ['sentence', 'Second one, e.g. with an abbreviation.'],
      ['sentence', 'A list item.'],
      ['code', '```sql\nCREATE INDEX i ON t (c);\n\nSELECT 1;\n```'],
      ['table', '| a | b |\n| --- | --- |'],
    ]);
  });
});
