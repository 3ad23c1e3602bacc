import type { CheerioAPI } from 'cheerio';
import type { Element } from 'domhandler';

/** Puts an element of another name, without attributes, in place of `element`, with its contents. */
export function rename($: CheerioAPI, element: Element, name: string): void {
  $(element).replaceWith($(`<${name}></${name}>`).append($(element).contents()));
}
