import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, call, startTestServer, type TestServer } from '../../testing/harness.ts';
import { type Body } from '../../testing/answers.ts';
import { OPERATOR_IDS } from '../../db/seed.ts';
import {
  ALICE_MACHINE,
  ALICE_MACHINE_2,
  BOB_MACHINE,
  admin,
  alice,
  bob,
  commandsApi,
  factory,
  keyWithScopes,
  resetAisles,
  type Command,
} from './commands.test-support.ts';

describe.each(DIALECTS)('remote dispense: fulfil and authorisation on %s', (dialect) => {
  let t: TestServer;
  let refSeq = 0;
  const ref = () => `ref-${dialect}-${++refSeq}`;
  const { enqueue, ack, pending, countCommands } = commandsApi(() => t);

  beforeAll(async () => {
    t = await startTestServer(dialect, { env: { RATE_LIMIT_PER_HOUR: '100000' } });
  });
  afterAll(async () => t.close());
  beforeEach(() => resetAisles(t));

  describe('POST /api/v1/fulfill', () => {
    const fulfill = (body: unknown, headers: Record<string, string> = alice) =>
      call<Body<Command & { dispense: boolean }>>(t.url, 'POST', '/api/v1/fulfill', { headers, json: body });

    it('walkup answers dispense: false and creates no command, with only machines:read', async () => {
      const readOnly = await keyWithScopes(t, OPERATOR_IDS.alice, ['machines:read']);
      const before = await countCommands();
      const r = await fulfill({ channel: 'walkup', machineNo: ALICE_MACHINE }, readOnly);
      expect(r.status).toBe(200);
      expect(r.body.data).toMatchObject({ channel: 'walkup', machineNo: ALICE_MACHINE, dispense: false });
      expect(await countCommands()).toBe(before);
      // the machine must still be the caller's
      expect((await fulfill({ channel: 'walkup', machineNo: BOB_MACHINE }, readOnly)).status).toBe(404);
    });

    it('the scope follows the channel: api_drop needs commands:write, walkup needs machines:read', async () => {
      const readOnly = await keyWithScopes(t, OPERATOR_IDS.alice, ['machines:read']);
      const writeOnly = await keyWithScopes(t, OPERATOR_IDS.alice, ['commands:write']);
      const drop = { channel: 'api_drop', machineNo: ALICE_MACHINE, aisleNo: 2, reason: 'scope', externalRef: ref() };
      const denied = await fulfill(drop, readOnly);
      expect(denied.status).toBe(403);
      expect(denied.body).toEqual({ code: 403, message: 'Insufficient scope', data: null });
      expect((await fulfill({ channel: 'walkup', machineNo: ALICE_MACHINE }, writeOnly)).status).toBe(403);
      const allowed = await fulfill(drop, writeOnly);
      expect(allowed.status).toBe(200);
      expect(allowed.body.data).toMatchObject({ dispense: true, status: 'pending', duplicate: false, channel: 'api_drop', aisleNo: 2 });
    });

    it('api_drop enqueues a pending command the poll returns; a retried call is the same drop', async () => {
      const drop = { channel: 'api_drop', machineNo: ALICE_MACHINE_2, aisleNo: 4, reason: 'reward: referral', externalRef: ref() };
      const r = await fulfill(drop);
      expect(r.status).toBe(200);
      const polled = await pending(alice, ALICE_MACHINE_2);
      expect(polled.body.data.map((c) => c.commandId)).toEqual([r.body.data.commandId]);
      const again = await fulfill(drop);
      expect(again.body.data).toMatchObject({ commandId: r.body.data.commandId, duplicate: true });
      const done = await ack(r.body.data.commandId, { success: true, outcome: 'success', detail: '' }, alice, ALICE_MACHINE_2);
      expect(done.body.data.order).toMatchObject({ paidPrice: 0, chargedCents: 0 });
    });

    it('refuses bad channels and bodies before anything is created', async () => {
      const before = await countCommands();
      expect((await fulfill({ machineNo: ALICE_MACHINE })).status).toBe(400);
      expect((await fulfill({ channel: 'drone', machineNo: ALICE_MACHINE })).status).toBe(400);
      expect((await fulfill({ channel: 7, machineNo: ALICE_MACHINE })).status).toBe(422);
      expect((await fulfill({ channel: 'api_drop', machineNo: ALICE_MACHINE, aisleNo: 1, reason: 'no ref' })).status).toBe(400);
      expect((await fulfill({ channel: 'walkup', machineNo: 'bad serial!' })).status).toBe(400);
      expect((await fulfill([1, 2])).status).toBe(422);
      expect((await fulfill({ channel: 'api_drop', machineNo: ALICE_MACHINE, aisleNo: 11, reason: 'x', externalRef: ref() })).status).toBe(400);
      expect(await countCommands()).toBe(before);
    });
  });

  describe('authorisation, endpoint by endpoint', () => {
    // Every endpoint: no credential 401, a key without the scope 403 (the factory key holds only
    // machines:read + machines:build), another operator's machine 404, admin 200.
    type Case = { name: string; method: string; path: (machineNo: string, commandId: string) => string; body?: () => unknown };
    const cases: Case[] = [
      {
        name: 'fulfill api_drop',
        method: 'POST',
        path: () => '/api/v1/fulfill',
        body: () => ({ channel: 'api_drop', machineNo: ALICE_MACHINE, aisleNo: 1, reason: 'auth', externalRef: ref() }),
      },
      { name: 'dispense', method: 'POST', path: (m) => `/api/v1/machines/${m}/commands/dispense`, body: () => ({ aisleNo: 1, reason: 'auth' }) },
      { name: 'pending', method: 'GET', path: (m) => `/api/v1/machines/${m}/commands/pending` },
      { name: 'list', method: 'GET', path: (m) => `/api/v1/machines/${m}/commands` },
      { name: 'get', method: 'GET', path: (m, c) => `/api/v1/machines/${m}/commands/${c}` },
      {
        name: 'ack',
        method: 'POST',
        path: (m, c) => `/api/v1/machines/${m}/commands/${c}/ack`,
        body: () => ({ success: false, outcome: 'board_busy', detail: '' }),
      },
    ];

    it.each(cases)('$name: 401 without a credential, 403 without the scope, 404 on another operator’s machine, 200 for admin', async (c) => {
      const cmd = (await enqueue({ aisleNo: 1, reason: 'auth fixture' })).body.data;
      const path = c.path(ALICE_MACHINE, cmd.commandId);
      const json = c.body?.();
      const opts = (headers: Record<string, string>) => ({ headers, ...(json !== undefined ? { json } : {}) });

      const none = await call(t.url, c.method, path, opts({}));
      expect(none.status).toBe(401);
      expect(none.body).toEqual({ code: 401, message: 'Invalid API key', data: null });

      const scope = await call(t.url, c.method, path, opts(factory));
      expect(scope.status).toBe(403);
      expect(scope.body).toEqual({ code: 403, message: 'Insufficient scope', data: null });

      const foreign = await call(t.url, c.method, path, opts(bob));
      expect(foreign.status).toBe(404);
      expect(foreign.body).toEqual({ code: 404, message: 'Machine not found', data: null });

      const ok = await call(t.url, c.method, path, opts(admin));
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ code: 200, message: 'success' });
    });

    it('fulfill walkup: 401 without a credential, 403 without machines:read, 404 on another operator’s machine, 200 for admin', async () => {
      const body = { channel: 'walkup', machineNo: ALICE_MACHINE };
      expect((await call(t.url, 'POST', '/api/v1/fulfill', { json: body })).status).toBe(401);
      const noRead = await keyWithScopes(t, OPERATOR_IDS.alice, ['commands:read', 'commands:write']);
      expect((await call(t.url, 'POST', '/api/v1/fulfill', { headers: noRead, json: body })).status).toBe(403);
      const foreign = await call(t.url, 'POST', '/api/v1/fulfill', { headers: bob, json: body });
      expect(foreign.status).toBe(404);
      expect(foreign.body).toEqual({ code: 404, message: 'Machine not found', data: null });
      expect((await call(t.url, 'POST', '/api/v1/fulfill', { headers: admin, json: body })).status).toBe(200);
    });
  });
});
