import type { Candidate } from '../core/types.js';
import { asksAboutVersions, isBoilerplate } from './boilerplate.js';
import { type AskedTerm, askedTerms, termsOf } from './question-coverage.js';
import { type Signature, signatureOf } from './signature.js';
import { splitUnits, type TextUnit } from './units.js';

/** A unit of one source, with the terms it states and the terms its context (section, label) states. */
export interface Piece {
  source: number;
  unit: TextUnit;
  terms: Set<string>;
  context: Set<string>;
  quotable: boolean;
}

/** What an extractive answer quotes, before it is written out. */
export interface AnswerPlan {
  signature?: Signature;
  /** Sentences of the best source, in reading order. */
  lead: Piece[];
  /** The code example and the sentence that introduces it, if any. */
  example: Piece[];
  /** Sentences of the other sources, by source rank then reading order. */
  others: Piece[];
  /** Terms of the question no source states, in its text or its headings. */
  missing: Set<string>;
  /** Whether no source states any term of the question. */
  nothingRelevant: boolean;
  /** The question's terms, as the index analyses them. */
  asked: Set<string>;
}

export interface PlanOptions {
  maxSentences: number;
  /** Takes room for a text in the answer's token budget: false (and nothing taken) when it does not fit. */
  reserve: (text: string) => boolean;
}

/** Sources whose sentences are weighed: the best few, as ranked. */
const SOURCES_WEIGHED = 4;
/** A source's sentences count this much less per rank below the best. */
const RANK_DISCOUNT = 0.3;
/** Restating a term already covered is worth this share of covering it anew. */
const RESTATED = 0.25;
/** A sentence must add at least this share of the question's weight. */
const MIN_NEW_COVERAGE = 0.06;
/** The best section's sentences that only restate the question are quoted up to this many in all… */
const LEAD_SENTENCES = 3;
/** …when they state at least this share of the question's weight. */
const RESTATES_MUCH = 0.4;
/** Another source's code example must show at least this share of the question's weight. */
const EXAMPLE_COVERAGE = 0.5;
/** Sentences that share this share of their words with a quoted one repeat it. */
const NEAR_DUPLICATE = 0.7;

/**
 * Chooses what to quote. The best source leads: its signature (an API entry) and its first
 * sentence that is not boilerplate. Then sentences are chosen across the best sources by how much
 * of the question they cover that is not covered yet (a term in the sentence counts fully, a term
 * only in its section heading or label half), discounted by their source's rank; then one code
 * example, the best source's when it has one that fits. Boilerplate is never chosen.
 */
export function planAnswer(question: string, sources: readonly Candidate[], options: PlanOptions): AnswerPlan {
  const aboutVersions = asksAboutVersions(question);
  const pieces: Piece[][] = sources.map((candidate, source) => {
    const context = termsOf(`${candidate.chunk.headingPath.join('\n')}\n${candidate.chunk.anchor ?? ''}`);
    return splitUnits(candidate.chunk.text).map((unit) => {
      const labelTerms = unit.label === undefined ? [] : [...termsOf(unit.label)];
      return { source, unit, terms: termsOf(unit.text), context: new Set([...context, ...labelTerms]), quotable: !isBoilerplate(unit, aboutVersions) && (unit.kind !== 'sentence' || unit.text.split(/\s+/).length >= 3) };
    });
  });
  const all = pieces.flat();
  const asked = askedTerms(question, all.map((piece) => piece.terms));
  const stated = (term: string) => all.some((piece) => piece.terms.has(term) || piece.context.has(term));
  const missing = new Set(asked.filter((term) => term.plain && !stated(term.term)).map((term) => term.term));
  const nothingRelevant = asked.every((term) => !stated(term.term));
  const best = sources[0];
  const bestPieces = pieces[0] ?? [];
  const signature = best === undefined ? undefined : signatureOf(best.chunk, bestPieces.map((piece) => piece.unit));

  // A term the answer states is covered; one only named by the heading of a quoted section (`indent=None` in a signature) half.
  const covered = new Map<string, number>();
  const cover = (piece: Piece) => {
    for (const term of asked) covered.set(term.term, Math.max(covered.get(term.term) ?? 0, level(piece, term)));
  };
  const plan: AnswerPlan = { lead: [], example: [], others: [], missing, nothingRelevant, asked: new Set(asked.map((term) => term.term)), ...(signature === undefined ? {} : { signature }) };
  const chosen = new Set<Piece>();
  const chosenWords: Set<string>[] = [];
  const take = (piece: Piece, into: Piece[]) => {
    chosen.add(piece);
    chosenWords.push(wordSet(piece.unit.text));
    into.push(piece);
    cover(piece);
  };
  if (signature !== undefined && !options.reserve(signature.text)) delete plan.signature;
  if (signature?.unit !== undefined) {
    const unit = signature.unit;
    const piece = bestPieces.find((candidate) => candidate.unit === unit);
    if (piece !== undefined) chosen.add(piece);
  }
  const first = bestPieces.find((piece) => piece.unit.kind === 'sentence' && piece.quotable);
  if (first !== undefined && options.reserve(first.unit.text)) take(first, plan.lead);

  const total = asked.reduce((sum, term) => sum + term.weight, 0);
  const pool = pieces.slice(0, SOURCES_WEIGHED).flat().filter((piece) => piece.unit.kind === 'sentence' && piece.quotable && !chosen.has(piece));
  let sentences = plan.lead.length;
  while (sentences < options.maxSentences && pool.length > 0) {
    // A sentence adds to the answer when it covers more of the question, or, in the best section, when it restates much of it.
    const eligible = pool
      .map((piece) => ({ piece, ...gain(piece, asked, covered) }))
      .filter((entry) => entry.fresh >= MIN_NEW_COVERAGE * total || (entry.piece.source === 0 && plan.lead.length < LEAD_SENTENCES && entry.restated >= RESTATES_MUCH * total));
    eligible.sort((a, b) => b.value - a.value);
    const top = eligible[0];
    if (top === undefined) break;
    pool.splice(pool.indexOf(top.piece), 1);
    const words = wordSet(top.piece.unit.text);
    if (chosenWords.some((other) => jaccard(words, other) >= NEAR_DUPLICATE) || !options.reserve(top.piece.unit.text)) continue;
    take(top.piece, top.piece.source === 0 ? plan.lead : plan.others);
    sentences += 1;
  }

  chooseExample(pieces, asked, plan, chosen, options.reserve);
  // A sentence that introduces a code block not quoted ("use a command such as this:") says nothing alone.
  const dangling = (piece: Piece) => /:\s*$/.test(piece.unit.text) && !plan.example.includes(piece);
  if (plan.lead.length + plan.others.length > 1) {
    plan.lead = plan.lead.filter((piece) => !dangling(piece));
    plan.others = plan.others.filter((piece) => !dangling(piece));
  }
  const order = (a: Piece, b: Piece) => a.source - b.source || a.unit.position - b.unit.position;
  plan.lead.sort(order);
  plan.others.sort(order);
  return plan;
}

/** The code example (or a table that answers): the best-covering block of the best sources (the best source's first), with its introduction. */
function chooseExample(pieces: readonly Piece[][], asked: readonly AskedTerm[], plan: AnswerPlan, chosen: ReadonlySet<Piece>, fits: (text: string) => boolean): void {
  const total = asked.reduce((sum, term) => sum + term.weight, 0);
  const candidates = pieces
    .slice(0, SOURCES_WEIGHED)
    .flat()
    .filter((piece) => piece.unit.kind !== 'sentence' && piece.quotable && !chosen.has(piece))
    .map((piece) => {
      const intro = introOf(pieces[piece.source] ?? [], piece);
      const own = asked.reduce((sum, term) => sum + term.weight * Math.max(level(piece, term), intro === undefined ? 0 : level(intro, term)), 0);
      // The best source's example shows what its section says; another source's must name the question's words itself.
      const shown = asked.reduce((sum, term) => sum + (piece.terms.has(term.term) || intro?.terms.has(term.term) === true ? term.weight : 0), 0);
      // A table is quoted only when it states much of the question itself (a table of the specifiers asked about, not a parameter list).
      const relevant = piece.source === 0 && piece.unit.kind === 'code' ? own > 0 : shown >= EXAMPLE_COVERAGE * total;
      return { piece, intro, score: relevant ? own / (1 + RANK_DISCOUNT * piece.source) + (piece.source === 0 ? Number.EPSILON : 0) : 0 };
    })
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score);
  for (const { piece, intro } of candidates) {
    const text = intro === undefined || plan.lead.includes(intro) || plan.others.includes(intro) ? piece.unit.text : `${intro.unit.text}\n${piece.unit.text}`;
    if (!fits(text)) continue;
    if (intro !== undefined) {
      plan.lead = plan.lead.filter((other) => other !== intro);
      plan.others = plan.others.filter((other) => other !== intro);
      plan.example.push(intro);
    }
    plan.example.push(piece);
    return;
  }
}

function introOf(pieces: readonly Piece[], code: Piece): Piece | undefined {
  const before = pieces.find((piece) => piece.unit.position === code.unit.position - 1);
  return before?.unit.kind === 'sentence' && before.quotable && /:\s*$/.test(before.unit.text) ? before : undefined;
}

/** 1 when the unit states the term, 0.5 when only its section heading or label does. */
function level(piece: Piece, term: AskedTerm | string): number {
  const name = typeof term === 'string' ? term : term.term;
  return piece.terms.has(name) ? 1 : piece.context.has(name) ? 0.5 : 0;
}

/**
 * What a sentence adds: the weight of the question's terms it covers beyond what the answer
 * covers already (`fresh`: a term it states counts fully, a term only its section heading or
 * label names counts half), and of the terms it states again (`restated`).
 */
function gain(piece: Piece, asked: readonly AskedTerm[], covered: ReadonlyMap<string, number>): { value: number; fresh: number; restated: number } {
  let fresh = 0;
  let restated = 0;
  for (const term of asked) {
    const here = level(piece, term);
    const before = covered.get(term.term) ?? 0;
    fresh += term.weight * Math.max(0, here - before);
    if (piece.terms.has(term.term)) restated += term.weight * before;
  }
  if (fresh + restated === 0) return { value: 0, fresh: 0, restated: 0 };
  const words = piece.unit.text.split(/\s+/).length;
  const length = words < 5 ? 0.5 : words > 60 ? 0.7 : 1;
  const prior = 1 / (1 + RANK_DISCOUNT * piece.source);
  return { value: (fresh + RESTATED * restated) * length * prior, fresh: fresh * prior, restated };
}

function wordSet(text: string): Set<string> {
  return new Set(text.toLowerCase().split(/\W+/).filter((word) => word.length > 2));
}

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const word of a) if (b.has(word)) shared += 1;
  return shared / (a.size + b.size - shared);
}
