import type { SiteReport } from '../../engine/site-report.js';

/** The report as text: one line per measure, the worst cases under it. */
export function formatSiteReport(report: SiteReport): string {
  const lines = [
    `${report.site || 'all sites'}: ${plural(report.pages, 'page')}, ${plural(report.passages, 'passage')}`,
    `  headings with an anchor   ${report.headings.withAnchor} of ${report.headings.total} (${report.headings.percentWithAnchor}%)`,
    `  anchors not on their page ${report.anchorsMissing.count}${report.anchorsMissing.count > 0 ? '  ← every cited #anchor must exist on its page' : ''}`,
    ...report.anchorsMissing.examples.map((url) => `    ${url}`),
    `  passages per section      median ${report.passagesPerSection.median}, p95 ${report.passagesPerSection.p95}, max ${report.passagesPerSection.max} (${plural(report.passagesPerSection.sections, 'section')})`,
    '  largest sections',
    ...report.largestSections.map((section) => `    ${String(section.passages).padStart(4)} passages, ${String(section.tokens).padStart(6)} tokens  ${section.url}`),
  ];
  const threshold = Math.max(2, Math.ceil(report.pages * 0.05));
  const shared = report.sharedTitles.filter((title) => title.pages >= threshold);
  lines.push(`  titles shared by ≥ ${threshold} pages ${shared.length === 0 ? 'none' : ''}`.trimEnd());
  for (const title of shared) lines.push(`    ${String(title.pages).padStart(4)} × "${title.title}"`);
  lines.push(`  pages with no passage     ${report.emptyPages.count}`);
  for (const url of report.emptyPages.examples) lines.push(`    ${url}`);
  return lines.join('\n');
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
