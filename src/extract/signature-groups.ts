import { selectAll } from 'css-select';
import { Text, type AnyNode, type Element } from 'domhandler';
import { appendChild, removeElement, textContent } from 'domutils';
import { SIGNATURE_SEPARATOR } from '../core/signatures.js';
import { isBlankText } from './heading-anchors.js';


/**
 * Consecutive `<dt>`s anchored at names of one namespace, with no `<dd>` between them, are one
 * entry under several names (Sphinx's `operator.xor(a, b)` and `operator.__xor__(a, b)`, one
 * description for both; an index's terms are not qualified names and stay apart): as separate
 * headings, every name but the last was an empty section and the description was cited at the
 * last name. They become one term, anchored at the first name, whose heading lists every
 * signature. The other names stay in the page's anchor map (a link to them still opens the page
 * there); passages are cited at the first.
 * pod2html writes each `=item` form of one function as a term with an empty `<dd>` and the
 * description under the last (`chomp VARIABLE`, `chomp( LIST )`, `chomp`); its ids are no
 * qualified names, so terms of one name with nothing but empty descriptions between them are
 * one entry too, cited at the first form, where the page's own links point (`#chomp-VARIABLE`).
 */
export function joinSignatureGroups(root: Element, served: ReadonlySet<string>): void {
  for (const list of selectAll('dl', root)) {
    // Texinfo's definition block (`@deftypefn` with its `@deftypefnx` lines) is one entry whatever
    // its ids say: Octave's `isfield (x, "name")` and `isfield (x, name)`, R's `gammafn` and `lgammafn`.
    // Texinfo 6 writes `<dl class="def">`, texi2any 7 `<dl class="first-deftypefn def-block">`.
    const definition = /(?:^|\s)def(?:-block)?(?:\s|$)/.test(list.attribs['class'] ?? '');
    const scopes = [list, ...list.children.filter((child): child is Element => child.type === 'tag' && child.name === 'div')];
    for (const scope of scopes) {
      let run: Element[] = [];
      // Empty descriptions after the terms of the run (pod2html's), removed when the run is joined.
      let empties: Element[] = [];
      const flush = () => {
        const [first, ...rest] = run;
        if (rest.length > 0) empties.forEach((empty) => removeElement(empty));
        run = [];
        empties = [];
        if (first === undefined) return;
        for (const other of rest) {
          const last = first.children.at(-1);
          if (last?.type === 'text') last.data = last.data.trimEnd();
          appendChild(first, new Text(SIGNATURE_SEPARATOR));
          for (const child of [...other.children]) appendChild(first, child);
          removeElement(other);
        }
      };
      // Over a copy: a flush removes terms already passed.
      for (const child of [...scope.children]) {
        if (child.type === 'text' && isBlankText(child.data)) continue;
        if (run.length > 0 && empties.length < run.length && isEmptyDescription(child)) {
          empties.push(child);
          continue;
        }
        const anchored = child.type === 'tag' && child.name === 'dt' && served.has(child.attribs['id'] ?? '');
        const first = run[0];
        const joins =
          anchored &&
          first !== undefined &&
          (definition ||
            (empties.length === 0 && namespaceOf(child.attribs['id'] ?? '') !== undefined && namespaceOf(child.attribs['id'] ?? '') === namespaceOf(first.attribs['id'] ?? '')) ||
            (empties.length === run.length && sameName(first, child)));
        if (!joins) flush();
        if (!anchored || child.type !== 'tag') continue;
        if (definition || namespaceOf(child.attribs['id'] ?? '') !== undefined || nameOf(child) !== undefined) run.push(child);
      }
      flush();
    }
  }
}

/** The namespace of a qualified API id with its separator (`operator.` of `operator.__xor__`, `std::vector::` of `std::vector::size`); none for other ids (an index entry's `ientry-id3162`). */
function namespaceOf(id: string): string | undefined {
  const match = /^([\p{L}_$][\p{L}\p{N}_$]*(?:(?:\.|::)[\p{L}_$][\p{L}\p{N}_$]*)*(?:\.|::))[\p{L}_$][\p{L}\p{N}_$]*$/u.exec(id);
  return match?.[1];
}

/** A `<dd>` that shows nothing. */
function isEmptyDescription(node: AnyNode): node is Element {
  return node.type === 'tag' && node.name === 'dd' && isBlankText(textContent(node)) && !node.children.some((child) => child.type === 'tag' && child.name === 'img');
}

/**
 * The name a term starts with when the term is a signature: `chomp` of `chomp( LIST )`, `use` of
 * `use Module VERSION LIST`. After the name come placeholders and punctuation, never a word in
 * lower case: "a name in angle brackets" or "There (probably) should be …" are prose.
 */
function nameOf(term: Element): string | undefined {
  const text = textContent(term).trim();
  const name = /^[^\s(]+/.exec(text)?.[0];
  return name === undefined || /(?<![\p{L}\p{N}_$])\p{Ll}{2,}(?![\p{L}\p{N}_])/u.test(text.slice(name.length)) ? undefined : name;
}

const sameName = (one: Element, other: Element): boolean => nameOf(one) !== undefined && nameOf(one) === nameOf(other);
