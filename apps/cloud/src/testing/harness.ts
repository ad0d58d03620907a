import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { ManualClock, type Clock } from '@vend/protocol';
import { loadConfig, type Config } from '../config.ts';
import { openDatabase, type Database, type Dialect } from '../db/database.ts';
import { closeContext, createContext, type AppContext } from '../context.ts';
import { listen, type RunningServer } from '../server.ts';
import { closeServices, createServices, type Services } from '../services.ts';
import { seedIfEmpty } from '../bootstrap.ts';
import type { Geocoder } from '../domains/machines/geocoder.ts';
import { createLogger } from '../logger.ts';
import { checkAnswer, serveContract } from './contract.ts';

export { ContractViolation } from './contract.ts';

/** Test support: every store test runs on SQLite always and on PostgreSQL when TEST_DATABASE_URL is set. */
export const TEST_DATABASE_URL = process.env['TEST_DATABASE_URL'];

export const DIALECTS: Dialect[] = TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

/** A fresh, empty, migrated store: a temp SQLite file, or a new PostgreSQL schema dropped on close. */
export async function freshDatabase(dialect: Dialect): Promise<Database> {
  if (dialect === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vend-test-'));
    const db = await openDatabase({ sqliteFile: path.join(dir, 'store.sqlite') });
    return {
      ...db,
      close: async () => {
        await db.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  if (!TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set');
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const db = await openDatabase({ url: TEST_DATABASE_URL, schema, poolSize: 5 });
  return {
    ...db,
    close: async () => {
      await db.close();
      const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await client.connect();
      await client.query(`drop schema if exists ${schema} cascade`);
      await client.end();
    },
  };
}

export interface TestServer {
  url: string;
  ctx: AppContext;
  /** The services the server was built with (the composition root's). */
  services: Services;
  clock: Clock;
  server: RunningServer;
  close(): Promise<void>;
}

export interface TestServerOptions {
  env?: Record<string, string>;
  clock?: Clock;
  /** Seed the sandbox data set (default true). */
  seed?: boolean;
  database?: Database;
  /** Where log lines go (tests that read the logs); silent otherwise. */
  logDestination?: pino.DestinationStream;
  /** A stand-in geocoder (the placement tests). */
  geocoder?: Geocoder;
  /** The composition root's test seams (the webhook tests shorten the delivery timeout). */
  services?: Parameters<typeof createServices>[1];
}

/**
 * A real listening server on 127.0.0.1 with a fresh store; the clock defaults to a ManualClock at a fixed
 * instant. Unless `env.DATA_DIR` is given, the server gets its own temporary data directory (the media
 * store writes there), removed on close.
 */
export async function startTestServer(dialect: Dialect, opts: TestServerOptions = {}): Promise<TestServer> {
  const ownDataDir = opts.env?.['DATA_DIR'] === undefined ? fs.mkdtempSync(path.join(os.tmpdir(), 'vend-data-')) : null;
  const config: Config = loadConfig({ LOG_LEVEL: 'silent', ...opts.env, ...(ownDataDir ? { DATA_DIR: ownDataDir } : {}) });
  const clock = opts.clock ?? new ManualClock(TEST_EPOCH);
  const database = opts.database ?? (await freshDatabase(dialect));
  const logger = opts.logDestination ? createLogger({ level: 'debug', pretty: false, destination: opts.logDestination }) : pino({ level: 'silent' });
  const ctx = await createContext(config, { clock, logger, database });
  const services = createServices(ctx, { ...opts.services, ...(opts.geocoder ? { geocoder: opts.geocoder } : {}) });
  if (opts.seed !== false) await seedIfEmpty(ctx, services.seedSteps);
  const server = await listen(ctx, services, 0, '127.0.0.1');
  // every answer this server gives a test is held to its own document (testing/contract.ts)
  const withdraw = serveContract(server.url, () => ctx.docs.document());
  return {
    url: server.url,
    ctx,
    services,
    clock,
    server,
    close: async () => {
      withdraw();
      await server.close();
      await closeServices(services);
      await closeContext(ctx);
      if (ownDataDir) fs.rmSync(ownDataDir, { recursive: true, force: true });
    },
  };
}

/** The instant every test server's ManualClock starts at. */
export const TEST_EPOCH = Date.parse('2026-11-20T12:00:00Z');

/** A suite's server: the `TestServer` once started, with its ManualClock at hand from the start. */
export interface SuiteServer extends TestServer {
  readonly clock: ManualClock;
}

/**
 * One test server for a suite (the body of a `describe.each(DIALECTS)`): started before the suite's
 * tests and closed after them. Call it at describe time; its members are live inside the tests.
 */
export function suiteServer(dialect: Dialect, opts: Omit<TestServerOptions, 'clock'> = {}): SuiteServer {
  const clock = new ManualClock(TEST_EPOCH);
  let started: TestServer | undefined;
  const server = (): TestServer => {
    if (!started) throw new Error('the suite server starts in beforeAll: use it inside a test or hook');
    return started;
  };
  beforeAll(async () => {
    started = await startTestServer(dialect, { ...opts, clock });
  });
  afterAll(async () => started?.close());
  return {
    clock,
    get url() {
      return server().url;
    },
    get ctx() {
      return server().ctx;
    },
    get services() {
      return server().services;
    },
    get server() {
      return server().server;
    },
    close: () => server().close(),
  };
}

export interface Replicas {
  a: TestServer;
  b: TestServer;
  /** The store both share (the test closes it last, through `close`). */
  database: Database;
  clock: ManualClock;
  close(): Promise<void>;
}

/**
 * Two replicas on one fresh store, one ManualClock and one data directory, each a context and a
 * listening server: what a multi-replica deployment looks like (a shared database and a shared
 * DATA_DIR volume), in one process. Only `a` seeds. Each replica gets a borrowed handle (a server's
 * close() closes the database it was given); `close` stops both, then the store and the directory.
 */
export async function startReplicas(dialect: Dialect, extraEnv: Record<string, string> = {}): Promise<Replicas> {
  const clock = new ManualClock(Date.parse('2026-11-20T12:00:00Z'));
  const database = await freshDatabase(dialect);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vend-data-'));
  const borrowed: Database = { ...database, close: async () => {} };
  const env = { ...extraEnv, DATA_DIR: dataDir };
  const a = await startTestServer(dialect, { database: borrowed, clock, env });
  const b = await startTestServer(dialect, { database: borrowed, clock, seed: false, env });
  return {
    a,
    b,
    database,
    clock,
    close: async () => {
      await a.close();
      await b.close();
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** A small HTTP client for tests: JSON in, parsed JSON (or text) out; every answer checked against the served document. */
export async function call<T = { code: number; message: string; data: unknown }>(
  base: string,
  method: string,
  path: string,
  opts: { headers?: Record<string, string>; json?: unknown; body?: string; query?: Record<string, string> } = {},
): Promise<ApiResponse<T>> {
  const url = new URL(base + path);
  for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, v);
  const headers: Record<string, string> = { ...opts.headers };
  let body: string | undefined = opts.body;
  if (opts.json !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = JSON.stringify(opts.json);
  }
  const res = await fetch(url, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await res.text();
  checkAnswer(method, url, { status: res.status, contentType: res.headers.get('content-type'), body: text });
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // non-JSON bodies (PNG, HTML) stay as text
  }
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}
