import TurndownService from 'turndown';

/**
 * HTML → Markdown with turndown: ATX headings, fenced code with its language, GFM tables,
 * images as their alt text. One converter is reused; turndown is stateless between calls.
 * Tables use our own linear-time rules: the GFM table plugins we measured were either
 * quadratic (36 s on PostgreSQL's 836-row keyword table) or kept header-less tables as HTML.
 */
export function createMarkdownConverter(): (html: string) => string {
  const service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '*',
  });
  addTableRules(service);

  service.addRule('preformatted', {
    filter: 'pre',
    replacement: (_content, node) => {
      const element = node as HTMLElement;
      // A no-break space in code (Javadoc's `public&nbsp;boolean`) is a space to whoever copies it.
      const code = (element.textContent ?? '').replace(/\u00a0/g, ' ').replace(/\n+$/, '');
      const fence = fenceFor(code);
      return `\n\n${fence}${codeLanguage(element)}\n${code}\n${fence}\n\n`;
    },
  });
  service.addRule('imageAlt', {
    filter: 'img',
    replacement: (_content, node) => (node as HTMLElement).getAttribute('alt')?.trim() ?? '',
  });
  return (html) => service.turndown(html).trim();
}

/** A fence longer than any backtick run inside the code, so the block cannot close early. */
function fenceFor(code: string): string {
  const longest = Math.max(2, ...[...code.matchAll(/`+/g)].map((match) => match[0].length));
  return '`'.repeat(longest + 1);
}

const LANGUAGE_CLASS = /(?:^|\s)(?:language|lang|highlight|sourceCode)-([\w+#.-]+)/;

/** Language from `language-x`/`lang-x` on pre or code, or Sphinx's `highlight-x` wrapper. */
function codeLanguage(pre: HTMLElement): string {
  const candidates: (Element | null)[] = [pre, pre.querySelector('code'), pre.parentElement, pre.parentElement?.parentElement ?? null];
  for (const element of candidates) {
    const match = LANGUAGE_CLASS.exec(element?.getAttribute('class') ?? '');
    const language = match?.[1];
    if (language && language !== 'default') return language.replace(/^python3$/, 'python');
    const dataLanguage = element?.getAttribute('data-language');
    if (dataLanguage) return dataLanguage;
  }
  return '';
}

const CELL_BREAKS = /\s*\n+\s*/g;

function addTableRules(service: TurndownService): void {
  service.addRule('tableCell', {
    filter: ['th', 'td'],
    replacement: (content) => ` ${content.trim().replace(CELL_BREAKS, ' ').replace(/\|/g, '\\|')} |`,
  });
  service.addRule('tableRow', {
    filter: 'tr',
    replacement: (content) => (content.trim() === '' ? '' : `\n|${content}`),
  });
  service.addRule('tableSection', {
    filter: ['thead', 'tbody', 'tfoot'],
    replacement: (content) => content,
  });
  service.addRule('tableCaption', { filter: 'caption', replacement: () => '' });
  service.addRule('table', {
    filter: 'table',
    replacement: (content, node) => {
      const rows = content.split('\n').filter((row) => row.startsWith('|'));
      if (rows.length === 0) return '';
      const columns = Math.max(1, ...rows.map((row) => row.split(/(?<!\\)\|/).length - 2));
      const separator = `|${' --- |'.repeat(columns)}`;
      const caption = (node as HTMLElement).querySelector('caption')?.textContent?.replace(/\s+/g, ' ').trim() || undefined;
      const body = [rows[0], separator, ...rows.slice(1)].join('\n');
      return `\n\n${caption ? `${caption}\n\n` : ''}${body}\n\n`;
    },
  });
  // Added last, so they win: a layout table (Sphinx's index pages: one row of cells holding
  // long lists) is not data, and as a GFM table would be one endless unsplittable row.
  service.addRule('layoutTable', {
    filter: (node) => node.nodeName === 'TABLE' && isLayoutTable(node as HTMLElement),
    replacement: (content) => `\n\n${content}\n\n`,
  });
  service.addRule('layoutRow', {
    filter: (node) => node.nodeName === 'TR' && isLayoutTable(enclosingTable(node)),
    replacement: (content) => `\n\n${content}\n\n`,
  });
  service.addRule('layoutCell', {
    filter: (node) => (node.nodeName === 'TD' || node.nodeName === 'TH') && isLayoutTable(enclosingTable(node)),
    replacement: (content) => `\n\n${content}\n\n`,
  });
}

const layoutTables = new WeakMap<object, boolean>();

/** No header cells, and a single row or cells holding lists, nested tables or code: layout, not data. */
function isLayoutTable(table: HTMLElement | undefined): boolean {
  if (table === undefined) return false;
  let layout = layoutTables.get(table);
  if (layout === undefined) {
    // domino's querySelector answers undefined, not null, when nothing matches: test truthiness.
    layout = !table.querySelector('th') && (table.querySelectorAll('tr').length <= 1 || Boolean(table.querySelector('td > ul, td > ol, td > dl, td > table, td > pre')));
    layoutTables.set(table, layout);
  }
  return layout;
}

function enclosingTable(node: Node): HTMLElement | undefined {
  let current = node.parentNode;
  while (current !== null && current.nodeName !== 'TABLE') current = current.parentNode;
  return current === null ? undefined : (current as HTMLElement);
}
