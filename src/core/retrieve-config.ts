import { z } from 'zod';

/** Retrieval: candidates, BM25F, fusion with dense lists, query techniques and the follow-up round. */
export const retrieveConfigSchema = z
  .strictObject({
    /** Candidates retrieved before selection. */
    topK: z.number().int().positive().default(40),
    /**
     * BM25F field weights: a match in the page title, the heading path, the name of the API a
     * passage defines, its code, or its prose (`text`).
     */
    fieldWeights: z
      .strictObject({
        title: z.number().min(0).default(2),
        headings: z.number().min(0).default(4),
        identifiers: z.number().min(0).default(4),
        code: z.number().min(0).default(1),
        text: z.number().min(0).default(1),
      })
      .prefault({}),
    /** BM25F's saturation (k1), length normalisation (b), and the weights of the entry and page link priors. */
    lexical: z
      .strictObject({
        // k1 and b tuned on the Python docs dev questions and SciFact train; the priors on the
        // Python docs and the three docsets-dev sites together (eval/baselines/README.md).
        k1: z.number().min(0).default(2),
        b: z.number().min(0).max(1).default(0.75),
        linkPrior: z.number().min(0).default(3),
        pagePrior: z.number().min(0).default(2),
        quotedWeight: z.number().min(0).default(0.25),
      })
      .prefault({}),
    fusion: z
      .strictObject({
        /**
         * How BM25 and dense lists merge: `weighted` sums min-max normalised scores (robust to
         * a weak dense model); `rrf` is reciprocal rank fusion.
         */
        method: z.enum(['weighted', 'rrf']).default('weighted'),
        /** RRF's k: larger flattens the difference between ranks. */
        rrfK: z.number().positive().default(60),
        bm25Weight: z.number().min(0).default(1),
        denseWeight: z.number().min(0).default(0.3),
      })
      .prefault({}),
    dense: z
      .strictObject({
        /** Candidates found by 1-bit codes and re-scored exactly; indexes up to this size are searched exactly. */
        coarseK: z.number().int().positive().max(4096).default(400),
      })
      .prefault({}),
    techniques: z
      .strictObject({
        /** Pseudo-relevance feedback: expansion terms from the top BM25 hits (no LLM needed). */
        prf: z
          .strictObject({
            enabled: z.boolean().default(false),
            weight: z.number().min(0).default(0.5),
            feedbackDocs: z.number().int().min(1).default(3),
            expansionTerms: z.number().int().min(1).default(10),
          })
          .prefault({}),
        /**
         * Names the docs define for a word of the question ("key (or legend)", "time to live (TTL)"),
         * read from the passages BM25 found, searched beside the question (no LLM needed). Weight 1:
         * the docs' own word counts as much as the question's (0.5 changed no result on the four sets).
         */
        aliases: z.strictObject({ enabled: z.boolean().default(true), weight: z.number().min(0).default(1) }).prefault({}),
        /**
         * Two neighbouring words of the question also searched as the one word the docs write
         * ("config file" → `configfile`), when the index holds that word (no LLM needed).
         */
        compounds: z.strictObject({ enabled: z.boolean().default(true), weight: z.number().min(0).default(1) }).prefault({}),
        /**
         * A small number the question writes in digits is also searched as the word the docs' prose
         * writes ("column 3 larger than 10" → three, ten), in the question's own query: one term in
         * two spellings, as a stem is (no LLM needed).
         */
        numbers: z.strictObject({ enabled: z.boolean().default(true) }).prefault({}),
        /**
         * Term proximity: a passage whose words stand together as the question's neighbouring words
         * do ("set the output to a file" for "output file") gains up to `weight` of its score, by the
         * share of those pairs found within `window` words (no LLM needed). Chosen on every set at
         * once (eval/baselines/README.md): 0.1 and 3 words; 0.2 cost a Python dev question.
         */
        proximity: z
          .strictObject({ enabled: z.boolean().default(true), weight: z.number().min(0).default(0.1), window: z.number().int().min(1).default(3) })
          .prefault({}),
        /**
         * Each passage weighed by the share of the question's words (IDF-weighted; the docs' own
         * aliases count for the word they name) that its own heading and text hold: its fused score
         * times (0.1 + 0.9 × share) ^ `weight` (no LLM needed). A coordination factor BM25F lacks:
         * a long how-to saying every word of the question no longer loses to a short entry saying
         * two. Chosen on the dev sets (eval/baselines/README.md): 0.15; 0.3 cost a Python question.
         */
        coverage: z.strictObject({ enabled: z.boolean().default(true), weight: z.number().min(0).default(0.15) }).prefault({}),
        /** HyDE: an LLM-written hypothetical passage, searched in the dense index (needs an LLM and an embedder). */
        hyde: z.strictObject({ enabled: z.boolean().default(true), weight: z.number().min(0).default(0.8) }).prefault({}),
        /** LLM-written query variants: keywords to BM25, paraphrases to the dense index (needs an LLM). */
        expansion: z
          .strictObject({ enabled: z.boolean().default(true), weight: z.number().min(0).default(0.7), variants: z.number().int().min(1).max(8).default(3) })
          .prefault({}),
        /** Skip expansion when BM25's best hit leads the next by this share of its score (0: never skip). */
        confidentMargin: z.number().min(0).max(1).default(0.5),
      })
      .prefault({}),
    /**
     * Lift a prose section that links to two or more of the passages found, on other pages, to
     * just below the best of them: a tutorial's section on a task, not only the entries it names.
     */
    guides: z.strictObject({ enabled: z.boolean().default(true) }).prefault({}),
    followUp: z
      .strictObject({
        /** A second round for the parts of the question the top candidates do not cover. */
        enabled: z.boolean().default(false),
        maxQueries: z.number().int().min(1).max(5).default(2),
        weight: z.number().min(0).default(0.6),
        /** Top candidates checked for coverage. */
        inspect: z.number().int().min(1).default(5),
      })
      .prefault({}),
  })
  .prefault({});
