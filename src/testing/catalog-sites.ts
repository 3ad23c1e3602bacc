import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** One HTML page of a fixture site: a title, and sections with real heading ids. */
export function fixturePage(title: string, sections: Record<string, string>): string {
  const body = Object.entries(sections)
    .map(([heading, text]) => `<h2 id="${heading.toLowerCase().replace(/[^a-z0-9]+/g, '-')}">${heading}</h2>\n<p>${text}</p>`)
    .join('\n');
  return `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>\n${body}\n</main></body></html>`;
}

/** Writes files (path → HTML) into a fresh temporary folder, for startStaticServer; returns the folder. */
export function writeSite(files: Record<string, string>, prefix = 'citedocs-catalog-site-'): string {
  const root = mkdtempSync(join(tmpdir(), prefix));
  for (const [path, html] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), html);
  }
  return root;
}

/** Words that make each topic page its own passage (near-duplicates would be dropped as such). */
const SUBJECTS: readonly (readonly [string, string])[] = [
  ['sockets', 'a socket that hears nothing within the limit is closed and the caller is told why'],
  ['proxies', 'requests through a proxy count the proxy handshake against the same limit'],
  ['database pools', 'a pooled database handle waits in the queue no longer than this'],
  ['DNS lookups', 'name resolution that stalls fails over to the next resolver in the list'],
  ['TLS handshakes', 'certificate exchange and cipher negotiation must finish inside the budget'],
  ['streaming uploads', 'each chunk of a large upload restarts the idle clock once it arrives'],
];

/**
 * A small library's site: an index page linking to `pages` topic pages, each about
 * "connection timeouts" in this library's words, so one question matches every library; `extra`
 * pages (path → HTML) are linked from the index too.
 */
export function librarySite(library: string, pages: number, flavour: string, extra: Record<string, string> = {}): Record<string, string> {
  const links = [...Array.from({ length: pages }, (_, index) => `topic-${index}.html`), ...Object.keys(extra)].map((path) => `<li><a href="${path}">${path}</a></li>`).join('');
  const files: Record<string, string> = {
    ...extra,
    'index.html': `<!doctype html><html><head><title>${library} documentation</title></head><body><main><h1>${library} documentation</h1><p>The ${library} manual.</p><ul>${links}</ul></main></body></html>`,
  };
  for (let index = 0; index < pages; index += 1) {
    const [subject, detail] = SUBJECTS[index % SUBJECTS.length] ?? ['sockets', 'sockets'];
    files[`topic-${index}.html`] = fixturePage(`${library} topic ${index}`, {
      [`Connection timeouts for ${subject}`]: `In ${library}, the connection timeouts of ${subject} are set with ${flavour}_${index}: ${detail}.`,
      [`Other ${flavour} matters`]: `Unrelated notes about ${flavour} number ${index}.`,
    });
  }
  return files;
}
