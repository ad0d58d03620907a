import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, call, startTestServer, type TestServer } from '../../testing/harness.ts';
import { expectRefused } from '../../testing/answers.ts';
import { OPERATOR_IDS, SANDBOX_CREDENTIALS } from '../../db/seed.ts';
import { freshSerial, insertPoolMachine, mintKey, newOperator, snapshot } from './machines.factories.ts';
import { admin, alice, bob, factory, machinesApi, TIMESTAMP, type Page } from './machines.test-support.ts';

describe.each(DIALECTS)('machines API on %s', (dialect) => {
  let t: TestServer;
  const { db, api, register, patch, row } = machinesApi(() => t);

  beforeAll(async () => {
    t = await startTestServer(dialect);
  });
  afterAll(async () => t.close());

  describe('access: every endpoint, every kind of caller', () => {
    let narrow: Record<string, string>;
    let aliceMachine: string;
    beforeAll(async () => {
      // Holds orders:read only: a valid credential lacking both machines scopes.
      narrow = { 'x-api-key': await mintKey(db(), OPERATOR_IDS.alice, 'orders:read') };
      aliceMachine = (await register(alice, { name: 'access probe' })).machineNo;
      await patch(aliceMachine, alice, { address: '1 Probe Street' });
    });

    interface Case {
      name: string;
      method: string;
      path: () => string;
      body?: () => unknown;
      /** what the factory key (machines:read + machines:build) gets */
      factory: number;
      /** alice acting on bob's machine */
      foreign: () => Promise<void>;
      /** admin acting on someone else's machine */
      admin: () => { path: string; body?: unknown };
    }
    const cases: Case[] = [
      {
        name: 'POST /machines/register',
        method: 'POST',
        path: () => '/api/v1/machines/register',
        body: () => ({ machineNo: freshSerial() }),
        factory: 403,
        foreign: async () => {
          const r = await api('POST', '/api/v1/machines/register', alice, { machineNo: 'SBX-BOB-0001' });
          expectRefused(r, 409, 'registered to another operator');
        },
        admin: () => ({ path: '/api/v1/machines/register', body: { machineNo: freshSerial(), operatorEmail: SANDBOX_CREDENTIALS.bob.email } }),
      },
      {
        name: 'GET /machines',
        method: 'GET',
        path: () => '/api/v1/machines',
        factory: 200,
        foreign: async () => {
          const r = await api<Page>('GET', '/api/v1/machines', alice, undefined, { size: '100' });
          expect(r.status).toBe(200);
          expect(r.body.data.records.map((m) => m.machineNo)).not.toContain('SBX-BOB-0001');
        },
        admin: () => ({ path: '/api/v1/machines' }),
      },
      {
        name: 'GET /machines/:machineNo',
        method: 'GET',
        path: () => `/api/v1/machines/${aliceMachine}`,
        factory: 404,
        foreign: async () => expectRefused(await api('GET', '/api/v1/machines/SBX-BOB-0001', alice), 404, /^Machine not found$/),
        admin: () => ({ path: '/api/v1/machines/SBX-BOB-0001' }),
      },
      ...(['PATCH', 'PUT'] as const).map((method): Case => ({
        name: `${method} /machines/:machineNo`,
        method,
        path: () => `/api/v1/machines/${aliceMachine}`,
        body: () => ({ notes: 'scoped' }),
        factory: 403,
        foreign: async () => expectRefused(await api(method, '/api/v1/machines/SBX-BOB-0001', alice, { notes: 'x' }), 404, /^Machine not found$/),
        admin: () => ({ path: '/api/v1/machines/SBX-BOB-0002', body: { notes: `admin ${method}` } }),
      })),
      {
        name: 'POST /machines/:machineNo/geocode/retry',
        method: 'POST',
        path: () => `/api/v1/machines/${aliceMachine}/geocode/retry`,
        factory: 403,
        foreign: async () =>
          expectRefused(await api('POST', '/api/v1/machines/SBX-BOB-0001/geocode/retry', alice, { address: '1 Main St' }), 404, /^Machine not found$/),
        admin: () => ({ path: `/api/v1/machines/${aliceMachine}/geocode/retry` }),
      },
    ];

    describe.each(cases)('$name', (c) => {
      it('without a credential: 401', async () => {
        expectRefused(await api(c.method, c.path(), {}, c.body?.()), 401, 'Invalid API key');
        expectRefused(await api(c.method, c.path(), { 'x-api-key': 'vk_0000000000000000.not-a-real-secret' }, c.body?.()), 401);
      });
      it('with a credential lacking the scope: 403', async () => {
        expectRefused(await api(c.method, c.path(), narrow, c.body?.()), 403, 'Insufficient scope');
        const f = await api(c.method, c.path(), factory, c.body?.());
        expect(f.status, f.text).toBe(c.factory);
      });
      it("on another operator's machine: refused, nothing shown", async () => {
        await c.foreign();
      });
      it('as admin: 200', async () => {
        const a = c.admin();
        const r = await api(c.method, a.path, admin, a.body);
        expect(r.status, r.text).toBe(200);
        expect(r.body.code).toBe(200);
      });
    });
  });

  describe('POST /machines/register', () => {
    it('creates an offline machine with ten empty aisles and a terminal on the owner merchant account, audited', async () => {
      const before = t.clock.now();
      const machineNo = freshSerial('NEW');
      const r = await api('POST', '/api/v1/machines/register', alice, { machineNo });
      expect(r.status).toBe(200);
      const m = r.body.data;
      expect(m).toMatchObject({ machineNo, name: machineNo, status: 'offline', lastSeen: null, location: '', lat: null, lng: null, notes: null });
      expect(m).not.toHaveProperty('operatorEmail');
      expect(m.geo).toEqual({ lat: null, lng: null, address: '', placeId: null });
      expect(m.paymentTerminal).toEqual({
        terminalId: expect.stringMatching(/^trm_/),
        merchantAccount: 'acct_op_sbx_alice',
        provider: 'sandbox-pay',
        boundAt: new Date(before).toISOString().replace('Z', '+0000'),
      });
      const aisles = await db().selectFrom('aisles').selectAll().where('machine_id', '=', m.id).orderBy('aisle_no').execute();
      expect(aisles.map((a) => [a.aisle_no, a.current_stock, a.max_stock, a.alert_threshold, a.faulted])).toEqual(
        Array.from({ length: 10 }, (_, i) => [i + 1, 0, 10, 2, 0]),
      );
      const terminal = await db().selectFrom('payment_terminals').selectAll().where('machine_id', '=', m.id).executeTakeFirstOrThrow();
      expect(terminal).toMatchObject({ operator_id: OPERATOR_IDS.alice, merchant_account: 'acct_op_sbx_alice' });
      const audit = await db().selectFrom('audit_log').selectAll().where('resource', '=', `machine:${machineNo}`).execute();
      expect(audit.map((a) => a.action)).toEqual(['machines.register']);
      expect(audit[0]!.user_id).toBe(OPERATOR_IDS.alice);
      // and it is now readable
      expect((await api('GET', `/api/v1/machines/${machineNo}`, alice)).body.data.id).toBe(m.id);
    });

    it('takes name, location and a lat/lng pair as decimal-degree strings', async () => {
      const m = await register(alice, { name: 'Airport kiosk', location: 'Terminal 2', lat: '51.4700', lng: '-0.4543' });
      expect(m).toMatchObject({ name: 'Airport kiosk', location: 'Terminal 2', lat: '51.47', lng: '-0.4543' });
      expect(m.geo).toMatchObject({ lat: 51.47, lng: -0.4543, address: 'Terminal 2' });
      expect(m.geo).not.toHaveProperty('geocodeStatus');
    });

    it('names every fault of a bad serial, and refuses a missing or mistyped one', async () => {
      const r = await api('POST', '/api/v1/machines/register', alice, { machineNo: 'ab_c' });
      expectRefused(r, 400, /letters, digits, hyphens only and 8–32 characters/);
      expectRefused(await api('POST', '/api/v1/machines/register', alice, { machineNo: 'A'.repeat(33) }), 400, /8–32 characters/);
      expectRefused(await api('POST', '/api/v1/machines/register', alice, {}), 400, /machineNo/);
      expectRefused(await api('POST', '/api/v1/machines/register', alice, { machineNo: 12345678 }), 422, /machineNo/);
    });

    it('refuses a lone coordinate, 0,0, out-of-range degrees and unknown fields, writing nothing', async () => {
      const before = await snapshot(db());
      const machineNo = freshSerial();
      expectRefused(await api('POST', '/api/v1/machines/register', alice, { machineNo, lat: '10' }), 400, /lat and lng must be sent together/);
      expectRefused(await api('POST', '/api/v1/machines/register', alice, { machineNo, lat: '0', lng: '0' }), 400, /0,0/);
      expectRefused(await api('POST', '/api/v1/machines/register', alice, { machineNo, lat: '91', lng: '1' }), 400, /lat must be decimal degrees/);
      expectRefused(await api('POST', '/api/v1/machines/register', alice, { machineNo, lat: 10, lng: 10 }), 422);
      expectRefused(await api('POST', '/api/v1/machines/register', alice, { machineNo, status: 'online' }), 400, /status/);
      expectRefused(await api('POST', '/api/v1/machines/register', alice, { machineNo, name: 'n'.repeat(101) }), 400, /name must be at most 100/);
      expect(await snapshot(db())).toBe(before);
    });

    it("refuses a serial owned by another operator and one already in the caller's fleet with 409, changing nothing", async () => {
      const before = await snapshot(db());
      expectRefused(
        await api('POST', '/api/v1/machines/register', alice, { machineNo: 'SBX-BOB-0001', name: 'mine now' }),
        409,
        /registered to another operator/,
      );
      expectRefused(await api('POST', '/api/v1/machines/register', alice, { machineNo: 'SBX-ALICE-0001' }), 409, /already in your fleet/);
      expect(await snapshot(db())).toBe(before);
    });

    it('claims an unclaimed serial: machine, earlier vends and terminal move to the operator, in one audited write', async () => {
      const op = await newOperator(db());
      const machineNo = freshSerial('POOL');
      const id = await insertPoolMachine(db(), machineNo, { orders: 3 });
      const otherFleet = await db().selectFrom('orders').select(['order_number', 'operator_id']).where('machine_id', '!=', id).execute();
      // Before the claim, no operator sees it; the admin does, without an owner.
      expectRefused(await api('GET', `/api/v1/machines/${machineNo}`, op.headers), 404, /^Machine not found$/);
      expect((await api('GET', `/api/v1/machines/${machineNo}`, admin)).body.data.operatorEmail).toBeNull();

      const r = await api('POST', '/api/v1/machines/register', op.headers, { machineNo, name: 'Claimed kiosk' });
      expect(r.status, r.text).toBe(200);
      expect(r.body.data).toMatchObject({ id, machineNo, name: 'Claimed kiosk', status: 'online' });
      expect(r.body.data.paymentTerminal).toMatchObject({
        merchantAccount: `acct_${op.id}`,
        boundAt: new Date(t.clock.now()).toISOString().replace('Z', '+0000'),
      });
      const m = await row(machineNo);
      expect(m).toMatchObject({ operator_id: op.id, claimed_at: t.clock.now() });
      const orders = await db().selectFrom('orders').select(['operator_id', 'terminal_id', 'settlement_account']).where('machine_id', '=', id).execute();
      expect(orders).toHaveLength(3);
      expect(orders.every((o) => o.operator_id === op.id)).toBe(true);
      // cashless vends now settle to the new owner's account; cash ones have none
      expect(orders.map((o) => (o.terminal_id ? o.settlement_account : null)).sort()).toEqual([`acct_${op.id}`, `acct_${op.id}`, null].sort());
      expect(orders.filter((o) => !o.terminal_id).every((o) => o.settlement_account === null)).toBe(true);
      expect(await db().selectFrom('orders').select(['order_number', 'operator_id']).where('machine_id', '!=', id).execute()).toEqual(otherFleet);
      const terminal = await db().selectFrom('payment_terminals').selectAll().where('machine_id', '=', id).executeTakeFirstOrThrow();
      expect(terminal).toMatchObject({ operator_id: op.id, merchant_account: `acct_${op.id}`, bound_at: t.clock.now() });
      // the stock already in the machine stays
      const aisles = await db().selectFrom('aisles').select('current_stock').where('machine_id', '=', id).execute();
      expect(aisles.map((a) => a.current_stock)).toEqual(Array(10).fill(5));
      const audit = await db().selectFrom('audit_log').select(['action', 'user_id']).where('resource', '=', `machine:${machineNo}`).execute();
      expect(audit).toEqual([{ action: 'machines.claim', user_id: op.id }]);
      // Now it is owned: the next claimant gets 409.
      expectRefused(await api('POST', '/api/v1/machines/register', bob, { machineNo }), 409, /another operator/);
    });

    it('claims the seed pool serial SBX-POOL-0001, and gives a pool machine without a terminal one', async () => {
      const op = await newOperator(db());
      const r = await api('POST', '/api/v1/machines/register', op.headers, { machineNo: 'SBX-POOL-0001' });
      expect(r.status, r.text).toBe(200);
      expect(r.body.data.paymentTerminal?.merchantAccount).toBe(`acct_${op.id}`);
      const bare = freshSerial('POOL');
      await insertPoolMachine(db(), bare, { terminal: false });
      const b = await api('POST', '/api/v1/machines/register', op.headers, { machineNo: bare });
      expect(b.body.data.paymentTerminal).toMatchObject({ merchantAccount: `acct_${op.id}`, provider: 'sandbox-pay' });
    });

    it('admin registers for the operator named by operatorEmail; operators may not name one', async () => {
      const m = await register(admin, { operatorEmail: SANDBOX_CREDENTIALS.bob.email.toUpperCase() });
      expect(m.operatorEmail).toBe(SANDBOX_CREDENTIALS.bob.email);
      expect(m.paymentTerminal?.merchantAccount).toBe('acct_op_sbx_bob');
      expect((await api('GET', `/api/v1/machines/${m.machineNo}`, bob)).status).toBe(200);
      expectRefused(
        await api('POST', '/api/v1/machines/register', admin, { machineNo: freshSerial(), operatorEmail: 'nobody@nowhere.test' }),
        400,
        /operatorEmail does not name an operator/,
      );
      const before = await snapshot(db());
      expectRefused(
        await api('POST', '/api/v1/machines/register', alice, { machineNo: freshSerial(), operatorEmail: SANDBOX_CREDENTIALS.bob.email }),
        403,
        /admin credentials/,
      );
      expect(await snapshot(db())).toBe(before);
      expectRefused(
        await api('POST', '/api/v1/machines/register', admin, { machineNo: 'SBX-BOB-0002', operatorEmail: SANDBOX_CREDENTIALS.bob.email }),
        409,
        /that operator's fleet/,
      );
    });

    it('two operators claiming one unclaimed serial at once: one owns it with its vends, the other gets 409', async () => {
      const [a, b] = [await newOperator(db()), await newOperator(db())];
      const machineNo = freshSerial('POOL');
      const id = await insertPoolMachine(db(), machineNo, { orders: 2 });
      const [ra, rb] = await Promise.all([
        api('POST', '/api/v1/machines/register', a.headers, { machineNo }),
        api('POST', '/api/v1/machines/register', b.headers, { machineNo }),
      ]);
      expect([ra.status, rb.status].sort()).toEqual([200, 409]);
      const winner = ra.status === 200 ? a : b;
      expect((await row(machineNo)).operator_id).toBe(winner.id);
      const owners = await db().selectFrom('orders').select('operator_id').where('machine_id', '=', id).execute();
      expect(owners.map((o) => o.operator_id)).toEqual([winner.id, winner.id]);
      const terminal = await db().selectFrom('payment_terminals').selectAll().where('machine_id', '=', id).executeTakeFirstOrThrow();
      expect(terminal.merchant_account).toBe(`acct_${winner.id}`);
    });

    it('two simultaneous registrations of one new serial: one machine, the other caller gets 409', async () => {
      const machineNo = freshSerial('RACE');
      const results = await Promise.all([
        api('POST', '/api/v1/machines/register', alice, { machineNo }),
        api('POST', '/api/v1/machines/register', bob, { machineNo }),
        api('POST', '/api/v1/machines/register', alice, { machineNo }),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
      const rows = await db().selectFrom('machines').select('id').where('machine_no', '=', machineNo).execute();
      expect(rows).toHaveLength(1);
      expect(await db().selectFrom('aisles').select('aisle_no').where('machine_id', '=', rows[0]!.id).execute()).toHaveLength(10);
    });
  });

  describe('GET /machines and /machines/:machineNo', () => {
    it('pages an operator fleet, newest rules of §8: page 1-based, size default 20 and at most 100', async () => {
      const op = await newOperator(db());
      const made = [];
      for (let i = 0; i < 5; i++) made.push((await register(op.headers, { name: `k${i}` })).machineNo);
      made.sort();
      const all = await api<Page>('GET', '/api/v1/machines', op.headers);
      expect(all.body.data).toMatchObject({ page: 1, size: 20, total: 5 });
      expect(all.body.data.records.map((m) => m.machineNo)).toEqual(made);
      const p2 = await api<Page>('GET', '/api/v1/machines', op.headers, undefined, { page: '2', size: '2' });
      expect(p2.body.data).toMatchObject({ page: 2, size: 2, total: 5 });
      expect(p2.body.data.records.map((m) => m.machineNo)).toEqual(made.slice(2, 4));
      const past = await api<Page>('GET', '/api/v1/machines', op.headers, undefined, { page: '9' });
      expect(past.body.data).toMatchObject({ total: 5, records: [] });
      expectRefused(await api('GET', '/api/v1/machines', op.headers, undefined, { size: '101' }), 400, /size/);
      expectRefused(await api('GET', '/api/v1/machines', op.headers, undefined, { page: '0' }), 400, /page/);
      expectRefused(await api('GET', '/api/v1/machines', op.headers, undefined, { size: 'ten' }), 422, /size/);
    });

    it('filters by status', async () => {
      const op = await newOperator(db());
      const a = await register(op.headers);
      await register(op.headers);
      await db().updateTable('machines').set({ status: 'online' }).where('machine_no', '=', a.machineNo).execute();
      const online = await api<Page>('GET', '/api/v1/machines', op.headers, undefined, { status: 'online' });
      expect(online.body.data.records.map((m) => m.machineNo)).toEqual([a.machineNo]);
      expect((await api<Page>('GET', '/api/v1/machines', op.headers, undefined, { status: 'offline' })).body.data.total).toBe(1);
      expectRefused(await api('GET', '/api/v1/machines', op.headers, undefined, { status: 'broken' }), 400, /status/);
    });

    it('operators see only their own machines, never pool ones; admin sees all with operatorEmail and can filter by it', async () => {
      const aliceList = await api<Page>('GET', '/api/v1/machines', alice, undefined, { size: '100' });
      expect(aliceList.body.data.records.length).toBeGreaterThan(0);
      for (const m of aliceList.body.data.records) expect(m).not.toHaveProperty('operatorEmail');
      const owners = await db().selectFrom('machines').select(['machine_no', 'operator_id']).execute();
      const aliceOwned = owners.filter((o) => o.operator_id === OPERATOR_IDS.alice).map((o) => o.machine_no);
      expect(aliceList.body.data.total).toBe(aliceOwned.length);
      expect(aliceList.body.data.records.map((m) => m.machineNo).sort()).toEqual(aliceOwned.sort().slice(0, 100));

      const pool = freshSerial('POOL');
      await insertPoolMachine(db(), pool);
      const allAdmin = await api<Page>('GET', '/api/v1/machines', admin, undefined, { size: '100' });
      expect(allAdmin.body.data.total).toBe(owners.length + 1);
      for (const m of allAdmin.body.data.records) expect(m).toHaveProperty('operatorEmail');
      const poolRecord = (await api('GET', `/api/v1/machines/${pool}`, admin)).body.data;
      expect(poolRecord.operatorEmail).toBeNull();
      const aliceAgain = await api<Page>('GET', '/api/v1/machines', alice, undefined, { size: '100' });
      expect(aliceAgain.body.data.records.map((m) => m.machineNo)).not.toContain(pool);

      const bobOnly = await api<Page>('GET', '/api/v1/machines', admin, undefined, { operatorEmail: SANDBOX_CREDENTIALS.bob.email, size: '100' });
      expect(bobOnly.body.data.total).toBe(owners.filter((o) => o.operator_id === OPERATOR_IDS.bob).length);
      expect(bobOnly.body.data.records.every((m) => m.operatorEmail === SANDBOX_CREDENTIALS.bob.email)).toBe(true);
      expectRefused(await api('GET', '/api/v1/machines', alice, undefined, { operatorEmail: SANDBOX_CREDENTIALS.bob.email }), 403, /admin/);
    });

    it('shows one machine in the §2.1 shape, with lastSeen and expireDate in the spec form', async () => {
      const r = await api('GET', '/api/v1/machines/SBX-ALICE-0001', alice);
      expect(r.status).toBe(200);
      const m = r.body.data;
      expect(m.lastSeen).toMatch(TIMESTAMP);
      expect(m.expireDate).toMatch(TIMESTAMP);
      expect(m).toMatchObject({
        machineNo: 'SBX-ALICE-0001',
        status: 'online',
        lat: '40.7506',
        lng: '-73.9935',
        geo: { lat: 40.7506, lng: -73.9935, address: m.location, placeId: null },
        timeZone: 'America/New_York',
        rentState: 1,
        // the sandbox seeds this kiosk's advertising screen (docs/sandbox.md)
        screen: expect.objectContaining({ venueName: 'Union Station, Concourse A', venueCategoryId: 10602, loop: { slots: 8, slotSeconds: 15 } }),
        software: { agentVersion: '1.0.0', platform: 'agent', vmcVersion: 'VMC-2.4.1', apkVersion: null },
      });
      expect(Object.keys(m).sort()).toEqual(
        [
          'id',
          'machineNo',
          'name',
          'status',
          'lastSeen',
          'location',
          'lat',
          'lng',
          'geo',
          'notes',
          'expireDate',
          'rentState',
          'timeZone',
          'address',
          'placeId',
          'salesTaxRate',
          'venueId',
          'screen',
          'software',
          'paymentTerminal',
        ].sort(),
      );
      const admins = await api('GET', '/api/v1/machines/SBX-ALICE-0001', admin);
      expect(admins.body.data.operatorEmail).toBe(SANDBOX_CREDENTIALS.alice.email);
    });

    it('never fails on a damaged stored screen block: it reads as null', async () => {
      const m = await register(alice);
      for (const damaged of [JSON.stringify({ panel: '32in', resolution: '1080x1920' }), '{not json']) {
        await db().updateTable('machines').set({ screen_json: damaged }).where('machine_no', '=', m.machineNo).execute();
        const r = await api('GET', `/api/v1/machines/${m.machineNo}`, alice);
        expect(r.status).toBe(200);
        expect(r.body.data.screen).toBeNull();
      }
    });

    it("answers 404 'Machine not found' for missing, foreign, unclaimed and impossible serials", async () => {
      for (const no of ['NOPE-0000-0000', 'SBX-BOB-0001', 'SBX-POOL-0001x', 'x', encodeURIComponent('a b/c')]) {
        expectRefused(await api('GET', `/api/v1/machines/${no}`, alice), 404, /^Machine not found$/);
      }
      expectRefused(await api('GET', '/api/v1/machines/%zz', alice), 400, /percent-encoding/);
    });
  });

  it('documents every machines route with its response schema in /openapi.json', async () => {
    const r = await call<{
      paths: Record<
        string,
        Record<
          string,
          { responses: Record<string, { content?: Record<string, { schema: { properties: { data: { properties: Record<string, unknown> } } } }> }> }
        >
      >;
    }>(t.url, 'GET', '/openapi.json');
    expect(r.status).toBe(200);
    const one = r.body.paths['/api/v1/machines/{machineNo}']!;
    expect(Object.keys(one).sort()).toEqual(['get', 'patch', 'put']);
    for (const [path, method] of [
      ['/api/v1/machines/register', 'post'],
      ['/api/v1/machines/{machineNo}', 'get'],
      ['/api/v1/machines/{machineNo}', 'patch'],
      ['/api/v1/machines/{machineNo}/geocode/retry', 'post'],
    ] as const) {
      const data = r.body.paths[path]![method]!.responses['200']!.content!['application/json']!.schema.properties.data;
      expect(Object.keys(data.properties)).toEqual(expect.arrayContaining(['machineNo', 'geo', 'lastSeen', 'software', 'paymentTerminal']));
    }
    const list = r.body.paths['/api/v1/machines']!['get']!.responses['200']!.content!['application/json']!.schema.properties.data;
    expect(Object.keys(list.properties)).toEqual(['page', 'size', 'total', 'records']);
  });
});
