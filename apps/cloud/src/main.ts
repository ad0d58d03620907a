import { systemClock } from '@vend/protocol';
import { ConfigError, loadConfig } from './config.ts';
import { createLogger } from './logger.ts';
import { createContext } from './context.ts';
import { listen } from './server.ts';
import { createServices } from './services.ts';
import { seedIfEmpty } from './bootstrap.ts';
import { SANDBOX_CREDENTIALS } from './db/seed.ts';
import { startJobs } from './background-jobs.ts';
import { gracefulShutdown } from './shutdown.ts';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`vend-cloud: ${e.message}\n`);
      process.exit(1);
    }
    throw e;
  }
  const logger = createLogger({ level: config.logLevel, pretty: config.logPretty });
  const ctx = await createContext(config, { clock: systemClock, logger });
  const services = createServices(ctx);
  const seeded = await seedIfEmpty(ctx, services.seedSteps);
  const server = await listen(ctx, services, config.port, config.host);
  startJobs(services);

  const payments = services.adPurchases.processorName;
  const lines = [`vend-cloud ${config.mode} listening on ${server.url} (store: ${ctx.database.describe}${seeded ? ', seeded' : ''}, payments: ${payments})`];
  if (config.mode === 'sandbox') {
    const c = SANDBOX_CREDENTIALS;
    lines.push(
      '',
      'Sandbox credentials (public, sandbox only — see docs/sandbox.md):',
      `  admin API key       X-API-Key: ${c.admin.apiKey}`,
      `  operator alice      X-API-Key: ${c.alice.apiKey}`,
      `  operator bob        X-API-Key: ${c.bob.apiKey}`,
      `  factory (${c.factory.plant})  X-API-Key: ${c.factory.apiKey}`,
      `  OAuth client        ${c.alice.oauthClientId} / ${c.alice.oauthClientSecret}`,
      `  sign-in             ${c.alice.email} / ${c.alice.password}  (TOTP secret ${c.alice.totpSecret})`,
      `  fleet secret        ${config.fleetSecret ?? '(none)'}`,
      '',
      `Try: curl -s -H 'X-API-Key: ${c.alice.apiKey}' ${server.url}/api/v1/machines`,
      `Readiness: ${server.url}/sandbox/readiness   API docs: ${server.url}/docs`,
    );
  }
  process.stdout.write(lines.join('\n') + '\n');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, ...config.shutdown }, 'shutting down: draining');
    // the last resort: whatever hangs past the delay, the grace and a margin, the process still ends
    const deadline = setTimeout(() => process.exit(1), config.shutdown.delayMs + config.shutdown.graceMs + 5_000);
    deadline.unref();
    const report = await gracefulShutdown(ctx, services, server, config.shutdown, logger);
    logger.info(report, 'stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((err: unknown) => {
  process.stderr.write(`vend-cloud: failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
