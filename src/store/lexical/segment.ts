import type { Chunk } from '../../core/types.js';
import { signatureDefinedNames } from '../../lexical/defined-names.js';
import { FieldLengths } from './field-lengths.js';
import { FIELD_COUNT, fieldsOf } from './fields.js';

/** A term's postings: the documents (ordinals, ascending) and each one's term count per field. */
export interface PostingList {
  docs: Uint32Array;
  /** `docs.length × FIELD_COUNT` counts, capped at 255. */
  tfs: Uint8Array;
}

/** Per-document data every query needs, loaded once. */
export interface SegmentDocs {
  count: number;
  /** The store's row id of each document. */
  rowIds: Float64Array;
  /** `count × FIELD_COUNT` field lengths in terms, capped at 65,535. */
  lengths: Uint16Array;
  /** Links from other chunks to each document's page#anchor. */
  inlinks: Uint16Array;
  /** Other pages that link into each document's page, to any of its anchors. */
  pageInlinks: Uint16Array;
}

/** A built lexical index: documents and a way to read one term's postings. */
export interface Segment {
  docs: SegmentDocs;
  /** Mean length of each field over the documents that have it (`FieldLengths`). */
  averageLengths: readonly number[];
  maxInlinks: number;
  maxPageInlinks: number;
  postings(term: string): PostingList | undefined;
}

export interface IndexedChunk {
  rowId: number;
  chunk: Pick<Chunk, 'pageUrl' | 'pageTitle' | 'headingPath' | 'anchor' | 'text'>;
}

export interface BuiltSegment extends Segment {
  /** Every term with its postings, for persisting. */
  terms: Map<string, PostingList>;
}

/** What the index keeps of one chunk: its field lengths, term counts per field, and links. */
export interface AnalyzedDocument {
  /** FIELD_COUNT lengths in terms, capped at 65,535. */
  lengths: number[];
  /** Each term with its count per field (capped at 255). */
  termCounts: Map<string, Uint8Array>;
  /** Targets (`page#anchor`) the chunk links to, each once. */
  links: string[];
  /** Other pages the chunk links into, each once. */
  linkedPages: string[];
  /** The `page#anchor` whose inbound links count for this chunk (an API entry), if any. */
  entry: string | undefined;
}

/**
 * Analyses one chunk for the index. `introAnchor` is the anchor of the first chunk of its page:
 * a link to a page's first anchor (its title: `#module-json`) points at the page, not at a section.
 */
export function analyzeDocument(chunk: IndexedChunk['chunk'], introAnchor: string | undefined): AnalyzedDocument {
  const fields = fieldsOf(chunk);
  const termCounts = new Map<string, Uint8Array>();
  const lengths: number[] = [];
  fields.terms.forEach((terms, field) => {
    lengths.push(Math.min(terms.length, 65_535));
    for (const term of terms) {
      let perField = termCounts.get(term);
      if (perField === undefined) {
        perField = new Uint8Array(FIELD_COUNT);
        termCounts.set(term, perField);
      }
      if ((perField[field] as number) < 255) perField[field] = (perField[field] as number) + 1;
    }
  });
  // Which pages link into each page: a page many others link to is one readers are sent to.
  // Counted once per linking page, so one long page that links a neighbour often weighs no more.
  const linkedPages = new Set<string>();
  for (const link of fields.links) {
    const page = link.slice(0, link.indexOf('#'));
    if (page !== chunk.pageUrl) linkedPages.add(page);
  }
  // Popularity is counted for the entries that define an API: how often the docs link to an
  // entry says how much it is used; links to a guide's section or a page's intro say less. Not
  // for a C++ or Java declaration (`signatureDefinedNames`): its links come from member lists.
  const definesApi = signatureDefinedNames(chunk).length > 0;
  const isIntro = introAnchor === chunk.anchor;
  const entry = chunk.anchor === undefined || isIntro || !definesApi ? undefined : `${chunk.pageUrl}#${chunk.anchor}`;
  return { lengths, termCounts, links: fields.links, linkedPages: [...linkedPages], entry };
}

/**
 * Builds the index of these chunks in memory: fields, lengths, postings and link counts. Chunks
 * come page by page, in reading order.
 */
export function buildSegment(chunks: Iterable<IndexedChunk>): BuiltSegment {
  const rowIds: number[] = [];
  const lengths: number[] = [];
  const targets: (string | undefined)[] = [];
  const linkCounts = new Map<string, number>();
  const pageAnchors = new Map<string, string | undefined>();
  const linkingPages = new Map<string, Set<string>>();
  const pageUrls: string[] = [];
  const building = new Map<string, { docs: number[]; tfs: number[] }>();
  let ordinal = 0;
  for (const { rowId, chunk } of chunks) {
    if (!pageAnchors.has(chunk.pageUrl)) pageAnchors.set(chunk.pageUrl, chunk.anchor);
    const document = analyzeDocument(chunk, pageAnchors.get(chunk.pageUrl));
    lengths.push(...document.lengths);
    for (const [term, perField] of document.termCounts) {
      let list = building.get(term);
      if (list === undefined) {
        list = { docs: [], tfs: [] };
        building.set(term, list);
      }
      list.docs.push(ordinal);
      for (const count of perField) list.tfs.push(count);
    }
    for (const link of document.links) linkCounts.set(link, (linkCounts.get(link) ?? 0) + 1);
    for (const page of document.linkedPages) {
      let sources = linkingPages.get(page);
      if (sources === undefined) linkingPages.set(page, (sources = new Set()));
      sources.add(chunk.pageUrl);
    }
    pageUrls.push(chunk.pageUrl);
    rowIds.push(rowId);
    targets.push(document.entry);
    ordinal += 1;
  }
  const inlinks = new Uint16Array(targets.map((target) => Math.min(target === undefined ? 0 : (linkCounts.get(target) ?? 0), 65_535)));
  const terms = new Map<string, PostingList>();
  for (const [term, list] of building) terms.set(term, { docs: Uint32Array.from(list.docs), tfs: Uint8Array.from(list.tfs) });
  const pageInlinks = new Uint16Array(pageUrls.map((page) => Math.min(linkingPages.get(page)?.size ?? 0, 65_535)));
  const docs: SegmentDocs = { count: ordinal, rowIds: Float64Array.from(rowIds), lengths: Uint16Array.from(lengths), inlinks, pageInlinks };
  return { docs, ...docStatistics(docs), terms, postings: (term) => terms.get(term) };
}

/** Mean field lengths (`FieldLengths`) and the largest link counts: derived from the documents, never stored. */
export function docStatistics(docs: SegmentDocs): { averageLengths: number[]; maxInlinks: number; maxPageInlinks: number } {
  const lengths = new FieldLengths();
  for (let doc = 0; doc < docs.count; doc += 1) lengths.add(docs.lengths, doc);
  let maxInlinks = 0;
  for (const count of docs.inlinks) if (count > maxInlinks) maxInlinks = count;
  let maxPageInlinks = 0;
  for (const count of docs.pageInlinks) if (count > maxPageInlinks) maxPageInlinks = count;
  return { averageLengths: lengths.means(), maxInlinks, maxPageInlinks };
}

/** Postings as bytes: the document ordinals (u32, little-endian) then their counts. */
export function encodePostings(list: PostingList): Buffer {
  const buffer = Buffer.alloc(list.docs.length * 4 + list.tfs.length);
  for (let index = 0; index < list.docs.length; index += 1) buffer.writeUInt32LE(list.docs[index] as number, index * 4);
  buffer.set(list.tfs, list.docs.length * 4);
  return buffer;
}

/** Whether typed arrays are little-endian here, as stored postings are: then their ordinals are copied as bytes. */
const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

export function decodePostings(bytes: Uint8Array): PostingList {
  const count = bytes.length / (4 + FIELD_COUNT);
  const docs = new Uint32Array(count);
  if (LITTLE_ENDIAN) {
    // One copy of the bytes (the blob need not be 4-byte aligned, so no view over it).
    new Uint8Array(docs.buffer).set(bytes.subarray(0, count * 4));
  } else {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let index = 0; index < count; index += 1) docs[index] = view.getUint32(index * 4, true);
  }
  return { docs, tfs: bytes.subarray(count * 4) };
}
