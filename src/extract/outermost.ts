import type { Element } from 'domhandler';

/** The elements of a list that no other element of the list holds, in their order. */
export function outermost(elements: readonly Element[]): Element[] {
  const listed = new Set(elements);
  return elements.filter((element) => {
    for (let parent = element.parent; parent !== null && parent.type === 'tag'; parent = parent.parent) if (listed.has(parent)) return false;
    return true;
  });
}
