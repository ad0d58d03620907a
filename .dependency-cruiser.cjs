/**
 * The import rules of the tree, checked in CI (`scripts/test`, step "architecture"). Type-only imports
 * count (tsPreCompilationDeps): a type cycle still ties two modules together for a reader.
 */
const { tiers } = require('./apps/cloud/src/domains/layers.json');

/** Test code may start whole servers and borrow other domains' factories: the layers bind product code. */
const TEST_CODE = '(\\.test|\\.factories|test-support|testkit|test-kit|\\.fixture)\\.ts$';
const DOMAINS = '^apps/cloud/src/domains/';
const order = tiers.flatMap((t) => t.domains);

/** One rule per domain: it may import only the domains listed before it (apps/cloud/src/domains/layers.json). */
const domainLayers = order.map((domain, i) => ({
  name: `domain-layers/${domain}`,
  severity: 'error',
  comment: `${domain} may use only the domains below it: ${order.slice(0, i).join(', ') || 'none'} (apps/cloud/src/domains/layers.json).`,
  from: { path: `${DOMAINS}${domain}/`, pathNot: TEST_CODE },
  to: { path: DOMAINS, pathNot: `${DOMAINS}(${[domain, ...order.slice(0, i)].join('|')})/` },
}));

module.exports = {
  forbidden: [
    ...domainLayers,
    {
      name: 'domain-layers/listed',
      severity: 'error',
      comment: 'Every domain folder has its place in apps/cloud/src/domains/layers.json.',
      from: { path: `${DOMAINS}(?!(${order.join('|')})/)[^/]+/` },
      to: {},
    },
    {
      name: 'kernel-knows-no-domain',
      severity: 'error',
      comment: 'The kernel (http/, db/, jobs/, crypto/, context.ts, config.ts) knows no domain and not the composition root that wires them.',
      from: { path: '^apps/cloud/src/((http|db|jobs|crypto)/|(context|config)\\.ts$)' },
      to: { path: '^apps/cloud/src/(domains/|(repos|services|app|main|server|bootstrap|background-jobs|fleet-runtime)\\.ts$)' },
    },
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
