import type { CheerioAPI } from 'cheerio';
import { cleanHeadingText } from './chrome.js';
import { surelySite, type TitleParts } from './page-title.js';

/** Where generators print the name of the project they document: Doxygen's PROJECT_NAME. */
const PROJECT_NAME_ELEMENTS = ['#projectname'];

/** The project's name as the generator prints it in its header, read before the header goes (Doxygen's `#projectname`, without its version). */
export function projectName($: CheerioAPI): string | undefined {
  for (const selector of PROJECT_NAME_ELEMENTS) {
    const element = $(selector).first();
    const own = cleanHeadingText(element.contents().filter((_, node) => node.type === 'text').text());
    if (own !== '') return own;
  }
  return undefined;
}

/**
 * The name the page gives its site, when it surely gives one: the generator's project name, else
 * the site's part of `<title>` when it reads like a site or `og:site_name` names it
 * ("Introduction — CMake 3.25.1 Documentation" → "CMake 3.25.1 Documentation"). A start page's
 * own title ("Introduction") names a page, not the library.
 */
export function siteName(project: string | undefined, parts: TitleParts): string | undefined {
  return project ?? surelySite(parts);
}
