import { describe, expect, it } from 'vitest';
import { ConfigError, SANDBOX_SECRETS, loadConfig } from './config.ts';
import { PRODUCTION_ENV } from './config.test-support.ts';

describe('config', () => {
  it('defaults to the sandbox on port 8080 with data in ./data and the sandbox secrets', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ mode: 'sandbox', port: 8080, dataDir: './data', rateLimitPerHour: 1000, fleetSecret: SANDBOX_SECRETS.FLEET_SECRET });
    expect(c.geocoder).toBeUndefined();
    expect(Object.isFrozen(c)).toBe(true);
  });

  it('reports every bad value at once', () => {
    try {
      loadConfig({ PORT: 'eighty', VEND_MODE: 'staging', DATABASE_URL: 'mysql://x' });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      const problems = (e as ConfigError).problems.join('\n');
      expect(problems).toContain('PORT');
      expect(problems).toContain('VEND_MODE');
      expect(problems).toContain('DATABASE_URL');
    }
  });

  it('production refuses to start without its secrets and never falls back to sandbox ones', () => {
    expect(() => loadConfig({ VEND_MODE: 'production' })).toThrow(/DATA_KEY.*\n.*FLEET_SECRET.*\n.*WEBHOOK_SECRET.*\n.*AD_PAYMENTS_WEBHOOK_SECRET/s);
    const c = loadConfig(PRODUCTION_ENV);
    expect(c.fleetSecret).toBe('fleet-secret-x');
    expect(c.dataKey).not.toBe(SANDBOX_SECRETS.DATA_KEY);
    expect(c.adPaymentsWebhookSecret).toBe('a'.repeat(16));
    expect(loadConfig({}).adPaymentsWebhookSecret).toBe(SANDBOX_SECRETS.AD_PAYMENTS_WEBHOOK_SECRET);
  });

  it('takes a lease TTL down to 2 s and one interval for every loop (drills); unset, each loop keeps its own', () => {
    expect(loadConfig({}).jobs).not.toHaveProperty('intervalSeconds');
    expect(loadConfig({ JOBS_LEASE_TTL_SECONDS: '2', JOBS_INTERVAL_SECONDS: '0.5' }).jobs).toMatchObject({ leaseTtlSeconds: 2, intervalSeconds: 0.5 });
    expect(() => loadConfig({ JOBS_LEASE_TTL_SECONDS: '1' })).toThrow(/JOBS_LEASE_TTL_SECONDS/);
    expect(() => loadConfig({ JOBS_INTERVAL_SECONDS: '0' })).toThrow(/JOBS_INTERVAL_SECONDS/);
    expect(() => loadConfig({ JOBS_LEASE_TTL_SECONDS: '2', JOBS_INTERVAL_SECONDS: '2' })).toThrow(/JOBS_INTERVAL_SECONDS.*below JOBS_LEASE_TTL_SECONDS/);
  });

  it('needs an identity-provider issuer and its JWKS together', () => {
    expect(() => loadConfig({ IDP_ISSUER: 'https://idp.example' })).toThrow(/IDP_JWKS_URL/);
    const c = loadConfig({ IDP_ISSUER: 'https://idp.example', IDP_JWKS_URL: 'http://127.0.0.1:9/jwks' });
    expect(c.idp).toEqual({ issuer: 'https://idp.example', jwksUrl: 'http://127.0.0.1:9/jwks', audience: undefined });
  });

  describe('SSP (programmatic supply)', () => {
    const PROD = PRODUCTION_ENV;

    it('is absent by default (the sandbox then uses its built-in mock)', () => {
      expect(loadConfig({}).ssp).toBeUndefined();
    });

    it('takes the URL (trailing slashes dropped), key, network and a timeout defaulting to 1500 ms', () => {
      const c = loadConfig({ SSP_URL: 'https://ssp.example/api/v1/', SSP_API_KEY: 'key-1', SSP_NETWORK_ID: 'net-1' });
      expect(c.ssp).toEqual({ url: 'https://ssp.example/api/v1', apiKey: 'key-1', networkId: 'net-1', timeoutMs: 1500 });
      expect(Object.isFrozen(c.ssp)).toBe(true);
      expect(loadConfig({ SSP_URL: 'https://ssp.example', SSP_API_KEY: 'k', SSP_NETWORK_ID: 'n', SSP_TIMEOUT_MS: '250' }).ssp?.timeoutMs).toBe(250);
    });

    it('needs the key and network with the URL, and refuses them without one', () => {
      expect(() => loadConfig({ SSP_URL: 'https://ssp.example' })).toThrow(/SSP_API_KEY.*\n.*SSP_NETWORK_ID/s);
      expect(() => loadConfig({ SSP_API_KEY: 'k' })).toThrow(/SSP_API_KEY: is set but SSP_URL is not/);
      expect(() => loadConfig({ SSP_NETWORK_ID: 'n' })).toThrow(/SSP_NETWORK_ID: is set but SSP_URL is not/);
    });

    it('refuses a URL that is not http(s), a timeout out of range, and clear-text http in production', () => {
      const creds = { SSP_API_KEY: 'k', SSP_NETWORK_ID: 'n' };
      expect(() => loadConfig({ SSP_URL: 'ftp://ssp.example', ...creds })).toThrow(/SSP_URL/);
      expect(() => loadConfig({ SSP_URL: 'not a url', ...creds })).toThrow(/SSP_URL/);
      expect(() => loadConfig({ SSP_URL: 'https://ssp.example', SSP_TIMEOUT_MS: '10', ...creds })).toThrow(/SSP_TIMEOUT_MS/);
      expect(() => loadConfig({ SSP_URL: 'https://ssp.example', SSP_TIMEOUT_MS: '60000', ...creds })).toThrow(/SSP_TIMEOUT_MS/);
      expect(() => loadConfig({ ...PROD, SSP_URL: 'http://ssp.example', ...creds })).toThrow(/SSP_URL: must be an https URL when VEND_MODE=production/);
      expect(loadConfig({ ...PROD, SSP_URL: 'https://ssp.example', ...creds }).ssp?.url).toBe('https://ssp.example');
      expect(loadConfig({ SSP_URL: 'http://127.0.0.1:9/ssp', ...creds }).ssp?.url).toBe('http://127.0.0.1:9/ssp');
    });
  });

  it('configures the creative studio by URL with a timeout, and has none by default', () => {
    expect(loadConfig({}).studio).toBeUndefined();
    expect(loadConfig({ STUDIO_URL: 'http://127.0.0.1:9/studio' }).studio).toEqual({ url: 'http://127.0.0.1:9/studio', timeoutMs: 30_000 });
    expect(loadConfig({ STUDIO_URL: 'https://studio.example', STUDIO_TIMEOUT_MS: '2500' }).studio).toEqual({ url: 'https://studio.example', timeoutMs: 2500 });
    expect(() => loadConfig({ STUDIO_URL: 'not a url' })).toThrow(/STUDIO_URL/);
    expect(() => loadConfig({ STUDIO_URL: 'https://studio.example', STUDIO_TIMEOUT_MS: '50' })).toThrow(/STUDIO_TIMEOUT_MS/);
  });

  it('configures outreach e-mail and telephony, the callbacks key only from the sandbox default or the environment', () => {
    expect(loadConfig({}).mail).toEqual({ smtpUrl: undefined, from: 'placements@vend.test' });
    expect(loadConfig({ SMTP_URL: 'smtps://u:p@mail.example:465', MAIL_FROM: 'a@b.example' }).mail).toEqual({
      smtpUrl: 'smtps://u:p@mail.example:465',
      from: 'a@b.example',
    });
    expect(() => loadConfig({ SMTP_URL: 'http://mail.example' })).toThrow(/SMTP_URL/);
    expect(loadConfig({}).telephony).toBeUndefined();
    expect(() => loadConfig({ TELEPHONY_URL: 'https://tel.example' })).toThrow(
      /TELEPHONY_ACCOUNT.*\n.*TELEPHONY_TOKEN.*\n.*TELEPHONY_FROM.*\n.*OUTREACH_WEBHOOK_SECRET/s,
    );
    const tel = {
      TELEPHONY_URL: 'https://tel.example/v1/',
      TELEPHONY_ACCOUNT: 'AC1',
      TELEPHONY_TOKEN: 't',
      TELEPHONY_FROM: '+15005550006',
      OUTREACH_WEBHOOK_SECRET: 'x'.repeat(16),
    };
    expect(loadConfig(tel).telephony).toEqual({ url: 'https://tel.example/v1', account: 'AC1', token: 't', from: '+15005550006' });
    expect(loadConfig({}).outreachWebhookSecret).toBe(SANDBOX_SECRETS.OUTREACH_WEBHOOK_SECRET);
    expect(loadConfig(PRODUCTION_ENV).outreachWebhookSecret).toBeUndefined();
  });

  it('takes Stripe with both keys and an absolute PUBLIC_BASE_URL; STRIPE_API_BASE (tests) never with a live key; the keys in no message', () => {
    const stripe = { STRIPE_SECRET_KEY: 'sk_test_abcdefgh1234', STRIPE_WEBHOOK_SECRET: 'whsec_abcdefgh1234', PUBLIC_BASE_URL: 'https://vend.example' };
    expect(loadConfig({}).stripe).toBeUndefined();
    expect(loadConfig(PRODUCTION_ENV).stripe).toBeUndefined();
    expect(loadConfig({ ...PRODUCTION_ENV, ...stripe }).stripe).toEqual({
      secretKey: stripe.STRIPE_SECRET_KEY,
      webhookSecret: stripe.STRIPE_WEBHOOK_SECRET,
      api: undefined,
    });
    expect(loadConfig({ ...stripe, STRIPE_API_BASE: 'http://127.0.0.1:4010' }).stripe?.api).toEqual({ host: '127.0.0.1', port: 4010, protocol: 'http' });
    expect(() => loadConfig({ STRIPE_SECRET_KEY: stripe.STRIPE_SECRET_KEY, PUBLIC_BASE_URL: stripe.PUBLIC_BASE_URL })).toThrow(
      /STRIPE_WEBHOOK_SECRET: STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET must be set together/,
    );
    expect(() => loadConfig({ ...stripe, PUBLIC_BASE_URL: undefined })).toThrow(/PUBLIC_BASE_URL: is required when STRIPE_SECRET_KEY is set/);
    expect(() => loadConfig({ ...stripe, STRIPE_SECRET_KEY: 'sk_live_abcdefgh1234', STRIPE_API_BASE: 'http://127.0.0.1:4010' })).toThrow(
      /STRIPE_API_BASE: must not be set with a live key/,
    );
    expect(() => loadConfig({ ...stripe, STRIPE_API_BASE: 'http://127.0.0.1:4010/v1' })).toThrow(/STRIPE_API_BASE/);
    try {
      loadConfig({ STRIPE_SECRET_KEY: 'pk_test_notasecretkey', STRIPE_WEBHOOK_SECRET: 'oops-secret-value' });
      expect.unreachable();
    } catch (e) {
      const problems = (e as ConfigError).problems.join('\n');
      expect(problems).toMatch(/STRIPE_SECRET_KEY: must be a Stripe secret key/);
      expect(problems).toMatch(/STRIPE_WEBHOOK_SECRET: must be a Stripe webhook signing secret/);
      expect(problems).not.toMatch(/pk_test_notasecretkey|oops-secret-value/);
    }
  });
});
