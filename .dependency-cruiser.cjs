/**
 * Import rules (npm run lint). The folders of src/ are layers, lowest first: a module imports
 * its own folder and the layers below it, never one above (a stage reaching up the pipeline);
 * between two stages only the lower one's top-level modules (its public surface: contracts,
 * factories) are imported, never the files of its subfolders (another stage's internals:
 * sideways); and no import cycle, type-only ones included. Tests and the testing/ fakes are
 * outside the layers: they may use anything, and production code never uses them.
 */
const LAYERS = [
  ['core'],
  ['lexical', 'tokenize'],
  ['llm', 'embed'],
  ['sources'],
  ['extract'],
  ['chunk'],
  ['store'],
  ['retrieve'],
  ['rank'],
  ['select'],
  ['answer'],
  ['catalog'],
  ['engine'],
  ['eval'],
  ['interfaces'],
];
/** Wiring layers: they build the stages, so they may reach into a stage's subfolders. */
const WIRING = ['engine', 'eval', 'interfaces'];
const TESTS = '(\\.test\\.ts$|\\.contract\\.ts$|^src/testing/)';
const folders = (layer) => `^src/(${layer.join('|')})/`;

const upward = LAYERS.flatMap((layer, index) => {
  const above = LAYERS.slice(index + 1).flat();
  return above.length === 0
    ? []
    : [
        {
          name: `up-from-${layer.join('-')}`,
          comment: `${layer.join(', ')} sits below ${above.join(', ')} in the stage order: it may not import them.`,
          severity: 'error',
          from: { path: folders(layer), pathNot: TESTS },
          to: { path: folders(above) },
        },
      ];
});

module.exports = {
  forbidden: [
    ...upward,
    {
      name: 'sideways-into-another-stage',
      comment: "A stage imports another stage's top-level modules only (its public surface), never the files in its subfolders.",
      severity: 'error',
      from: { path: '^src/([^/]+)/', pathNot: [TESTS, `^src/(${WIRING.join('|')})/`] },
      // core/ is the base every stage builds on (its http/ client included), not a stage.
      to: { path: '^src/([^/]+)/[^/]+/', pathNot: ['^src/$1/', '^src/core/'] },
    },
    {
      name: 'no-cycle',
      comment: 'Modules that import each other (even for types only) cannot be understood or changed one at a time.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-test-code-in-production',
      comment: 'Fakes and fixtures are for tests.',
      severity: 'error',
      from: { path: '^src/', pathNot: TESTS },
      to: { path: TESTS },
    },
    {
      name: 'unknown-layer',
      comment: 'Every folder of src/ has a place in LAYERS (.dependency-cruiser.cjs).',
      severity: 'error',
      from: { path: '^src/[^/]+/', pathNot: [TESTS, `^src/(${LAYERS.flat().join('|')})/`] },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^src/testing/fixtures/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], extensions: ['.ts', '.js'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
