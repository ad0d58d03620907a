/**
 * The import rules of the tree, checked in CI (`scripts/test`, step "architecture"). Type-only imports
 * count (tsPreCompilationDeps): a type cycle still ties two modules together for a reader.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycles, type-only imports included.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'store-knows-no-domain',
      severity: 'error',
      comment: 'The store (db/) knows no domain: the composition root hands each domain its part (seed steps, repositories).',
      from: { path: '^apps/cloud/src/db/' },
      to: { path: '^apps/cloud/src/domains/' },
    },
    {
      name: 'domains-below-the-composition-root',
      severity: 'error',
      comment: 'Domains receive what they need; they never reach for the composition root that builds them.',
      // tests and their factories start whole servers: they may
      from: { path: '^apps/cloud/src/(domains|http|jobs)/', pathNot: '(\\.test|\\.factories|test-support|testkit|\\.fixture)\\.ts$' },
      to: { path: '^apps/cloud/src/(services|app|main|server)\\.ts$' },
    },
    {
      name: 'apps-share-only-protocol',
      severity: 'error',
      comment: 'Apps never import each other; they share only @vend/protocol.',
      from: { path: '^(apps/[^/]+|firmware-sim)/' },
      to: { path: '^(apps/[^/]+|firmware-sim)/', pathNot: ['^$1/'] },
    },
    {
      name: 'protocol-is-pure',
      severity: 'error',
      comment: 'The wire contract imports no app.',
      from: { path: '^packages/' },
      to: { path: '^(apps|firmware-sim)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|\\.tmp)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'], conditionNames: ['import', 'node', 'default'] },
  },
};
