/** A complete production environment for tests: every secret production requires, none of them the sandbox's. */
export const PRODUCTION_ENV = {
  VEND_MODE: 'production',
  DATA_KEY: 'k'.repeat(32),
  FLEET_SECRET: 'fleet-secret-x',
  WEBHOOK_SECRET: 'w'.repeat(16),
  AD_PAYMENTS_WEBHOOK_SECRET: 'a'.repeat(16),
  RELEASE_PUBLIC_KEY: 'wHg6OmqNGbjsECQcM5ejBHwcKpxd2XBfOWRyIfHzd+E=',
  ARTIFACT_URL_PREFIX: 'https://artifacts.example.com/agent/',
} as const;
