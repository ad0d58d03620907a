import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { SANDBOX, api, cleanup, tempDir } from './support/cabinet-rig.ts';
import type { CloudProc } from './support/cabinet-rig.ts';
import { CHROMIUM, PHONE_SIZE, axeSerious, guardedContext } from './support/kiosk-browser.ts';
import { ALICE, BOB, DESKTOP_SIZE, consoleShot, signIn as signInAt, tabTo, weigh, startConsoleRig } from './support/console-browser.ts';

// The console's done-for-you checkpoint inbox (/console/placements) and the access-group switch (/console/access and
// the banner) in chromium against the cloud sandbox (docs/console.md). Alice answers her seeded deals' checkpoints —
// every confirm gate a dialog showing the terms or the amount, then an explicit click — and a deal she asks for through
// the public API, by keyboard only; bob sees none of it; dave, given a group on alice's fleet through the access API,
// switches onto it, sees only the group's machines under the banner, goes back, and signs out of both sessions.

const DAVE = { email: 'dave@sandbox.vend.test', password: 'sandbox-dave-pass' };
const dir = tempDir('console-placements-');
let cloud: CloudProc;
let browser: Browser;
let phone: BrowserContext;
const problems: string[] = [];
const shot = consoleShot;
const signIn = (page: Page, path: string, who: { email: string; password: string; totp?: string }) => signInAt(page, cloud.url, path, who);
const flash = (page: Page) => page.locator('#flash');

interface Deal {
  id: string;
  stage: string;
  tier: string;
  priceUsd: number;
  note: string | null;
  venue: { name: string } | null;
  negotiation: { terms: { revenueSharePct: number; termMonths: number } | null };
  money: { machinePaidUsd: number };
  openCheckpoints: { kind: string; id: string }[];
}
const dfy = <T>(method: string, path: string, body?: unknown) => api<T>(cloud.url, method, `/api/v1/dfy${path}`, SANDBOX.alice, body);
const dealOf = async (id: string) => (await dfy<Deal>('GET', `/deals/${id}`)).data;
const deals = async () => (await dfy<{ records: Deal[] }>('GET', '/deals?size=100')).data.records;
const nameOf = (d: Deal) => d.venue?.name ?? d.note ?? d.id;
const usd = (n: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(n);
/** The open checkpoint of `kind` on deal `dealId`, as the page lists it. */
const item = (page: Page, kind: string, dealId: string) => page.locator(`li.checkpoint[data-kind="${kind}"]`).filter({ hasText: dealId });

/** Takes the failed requests chromium logs for the refusals a test provoked (these statuses), and nothing else. */
async function expectRefusals(seen: number, ...statuses: number[]): Promise<void> {
  await expect.poll(() => problems.length).toBeGreaterThan(seen);
  expect(problems.slice(seen).filter((p) => !statuses.some((s) => p.includes(`status of ${s}`)))).toEqual([]);
  problems.splice(seen);
}
let daveState: Awaited<ReturnType<BrowserContext['storageState']>>;

async function cold(context: BrowserContext, size: object, path: string, heading: string, label: string): Promise<void> {
  const fresh = await guardedContext(browser, { ...size, storageState: await context.storageState() }, [cloud.url], problems);
  const page = await fresh.newPage();
  await page.goto(`${cloud.url}${path}`);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  process.stdout.write(`console ${label} (sandbox, cold): ${JSON.stringify(await weigh(page))}\n`);
  await fresh.close();
}

describe.skipIf(!CHROMIUM)('the placements inbox and the access-group switch in chromium', () => {
  beforeAll(async () => {
    ({ cloud, browser, phone } = await startConsoleRig(dir, problems));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await cleanup(dir);
  });

  it('on a phone, alice approves near-edge terms and sends the lease, each in a dialog showing the terms; sending first is refused in the API’s words', async () => {
    const page = await phone.newPage();
    await signIn(page, '/console/placements', ALICE);
    await page.getByRole('heading', { level: 1, name: 'Placements' }).waitFor();
    const deal = (await deals()).find((d) => d.stage === 'lease_chat' && d.openCheckpoints.some((c) => c.kind === 'terms_approval'))!;
    const name = nameOf(deal);
    const terms = deal.negotiation.terms!;
    // the seeded inbox: five deals' checkpoints (and whatever the autopilot raised meanwhile)
    expect(await page.locator('li.checkpoint').count()).toBeGreaterThanOrEqual(6);
    await expect.poll(() => item(page, 'lease_send', deal.id).textContent()).toContain('lease chat');
    expect(await item(page, 'lease_send', deal.id).textContent()).toContain(name);
    expect(await axeSerious(page)).toEqual([]);
    await page.screenshot({ path: shot('placements-phone'), fullPage: true });

    // the lease first: the dialog shows the terms; the API refuses until the terms are approved, and the dialog says so
    await page.getByRole('button', { name: `Send lease for ${name}` }).click();
    let dialog = page.getByRole('dialog', { name: `Send the lease for ${name}?` });
    await dialog.waitFor();
    expect(await dialog.locator('.terms').textContent()).toContain(`${terms.revenueSharePct}%`);
    expect(await dialog.locator('.terms').textContent()).toContain(`${terms.termMonths} months`);
    const refusal = await dfy('POST', `/deals/${deal.id}/lease/send`, { confirm: true });
    expect(refusal.status).toBe(409);
    const seen = problems.length;
    await dialog.getByRole('button', { name: 'Send the lease' }).click();
    await expect.poll(() => dialog.getByRole('alert').textContent()).toBe(refusal.message);
    await expectRefusals(seen, 409);
    expect((await dealOf(deal.id)).stage).toBe('lease_chat');
    await page.keyboard.press('Escape');
    expect(await page.getByRole('dialog').count()).toBe(0);

    // approve the terms: the dialog shows them and why they need a person; only the explicit click moves anything
    await page.getByRole('button', { name: `Approve terms for ${name}` }).click();
    dialog = page.getByRole('dialog', { name: `Approve the terms for ${name}?` });
    await dialog.waitFor();
    expect(await dialog.locator('.terms').textContent()).toContain(`${terms.revenueSharePct}%`);
    expect(await dialog.locator('.reasons li').count()).toBeGreaterThan(0);
    expect(await axeSerious(page)).toEqual([]);
    await page.screenshot({ path: shot('placements-approve-terms-phone') });
    expect((await dealOf(deal.id)).openCheckpoints.map((c) => c.kind)).toContain('terms_approval');
    await dialog.getByRole('button', { name: 'Approve these terms' }).click();
    await expect.poll(() => flash(page).textContent()).toBe(`Terms approved for ${name}: the deal is now lease chat`);
    expect((await dealOf(deal.id)).openCheckpoints.map((c) => c.kind)).not.toContain('terms_approval');
    expect(await item(page, 'terms_approval', deal.id).count()).toBe(0);

    await page.getByRole('button', { name: `Send lease for ${name}` }).click();
    dialog = page.getByRole('dialog', { name: `Send the lease for ${name}?` });
    await dialog.getByRole('button', { name: 'Send the lease' }).click();
    await expect.poll(() => flash(page).textContent()).toBe(`Lease sent for ${name}: the deal is now lease sent`);
    expect((await dealOf(deal.id)).stage).toBe('lease_sent');
    expect(await page.locator('.deals-table tr').filter({ hasText: deal.id }).locator('.badge').textContent()).toBe('lease sent');
    await page.close();
    await cold(phone, PHONE_SIZE, '/console/placements', 'Placements', 'placements (phone)');
  });

  it('with a real processor (its answer faked here: the sandbox pays at once), Pay sends alice to the payment page instead of saying paid', async () => {
    const desktop = await guardedContext(browser, { ...DESKTOP_SIZE, storageState: await phone.storageState() }, [cloud.url], problems);
    const page = await desktop.newPage();
    const deal = (await deals()).find((d) => d.stage === 'signed' && d.openCheckpoints.some((c) => c.kind === 'money'))!;
    const name = nameOf(deal);
    // the processor's hosted page stands in on the cloud's own origin (the guarded browser reaches nothing else)
    const checkoutUrl = `${cloud.url}/console/placements?paying=${deal.id}`;
    let asked = 0;
    await page.route(`${cloud.url}/api/v1/dfy/deals/${deal.id}/order/checkout`, async (route) => {
      asked++;
      const payment = { id: 'dpay_test', kind: 'checkout', status: 'awaiting_payment', amountUsd: deal.priceUsd, currency: 'USD' };
      const data = { ...deal, payment: { ...payment, processor: 'stripe', paymentIntentId: 'cs_test_console', checkoutUrl } };
      await route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ code: 200, message: 'success', data }) });
    });
    await page.goto(`${cloud.url}/console/placements`);
    await page.getByRole('heading', { level: 1, name: 'Placements' }).waitFor();
    await page.getByRole('button', { name: `Pay for ${name}` }).click();
    await page
      .getByRole('dialog', { name: `Pay for the machine for ${name}?` })
      .getByRole('button', { name: `Pay ${usd(deal.priceUsd)}` })
      .click();
    await page.waitForURL(checkoutUrl);
    expect(asked).toBe(1);
    // nothing was paid by the click: the deal still waits at its money checkpoint
    expect((await dealOf(deal.id)).money.machinePaidUsd).toBe(0);
    await desktop.close();
  });

  it('on a desktop, alice pays for a signed deal’s machine: the dialog shows the amount, the click pays it, the API then says so', async () => {
    const desktop = await guardedContext(browser, { ...DESKTOP_SIZE, storageState: await phone.storageState() }, [cloud.url], problems);
    const page = await desktop.newPage();
    await page.goto(`${cloud.url}/console/placements`);
    await page.getByRole('heading', { level: 1, name: 'Placements' }).waitFor();
    const deal = (await deals()).find((d) => d.stage === 'signed' && d.openCheckpoints.some((c) => c.kind === 'money'))!;
    const name = nameOf(deal);
    const amount = usd(deal.priceUsd);
    expect(deal.money.machinePaidUsd).toBe(0);
    await page.getByRole('button', { name: `Pay for ${name}` }).click();
    const dialog = page.getByRole('dialog', { name: `Pay for the machine for ${name}?` });
    await dialog.waitFor();
    expect(await dialog.locator('.amount').textContent()).toBe(amount);
    // the dialog alone pays nothing
    expect((await dealOf(deal.id)).money.machinePaidUsd).toBe(0);
    expect(await axeSerious(page)).toEqual([]);
    await page.screenshot({ path: shot('placements-pay-desktop') });
    await dialog.getByRole('button', { name: `Pay ${amount}` }).click();
    await expect.poll(() => flash(page).textContent()).toBe(`Paid ${amount} for ${name}: the deal is now ready to ship`);
    const paid = await dealOf(deal.id);
    expect([paid.money.machinePaidUsd, paid.openCheckpoints.map((c) => c.kind)]).toEqual([deal.priceUsd, []]);
    expect(await item(page, 'money', deal.id).count()).toBe(0);
    expect(await axeSerious(page)).toEqual([]);
    await page.screenshot({ path: shot('placements-desktop'), fullPage: true });
    await desktop.close();
  });

  it('by keyboard only, alice chooses a venue for a deal she asked for through the API, and acknowledges a call outcome', async () => {
    const created = await dfy<Deal>('POST', '/deals', { tier: 'entry', hardwareVariant: 'agent', venue: null, note: 'Console check: a library lobby' });
    expect([created.status, created.data.stage, created.data.openCheckpoints.map((c) => c.kind)]).toEqual([200, 'shortlisting', ['scout_outreach']]);
    const deal = created.data;
    const name = nameOf(deal);
    const page = await phone.newPage();
    await page.goto(`${cloud.url}/console/placements`);
    await page.getByRole('heading', { level: 1, name: 'Placements' }).waitFor();
    await tabTo(page, `Choose a venue for ${name}`);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: `Choose a venue for ${name}` });
    await dialog.waitFor();
    // nothing chosen for her: the first venue is focused, not checked
    expect(await dialog.locator('input[name="venue"]:checked').count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('venue-0');
    const venue = (await dialog.locator('label[for="venue-0"] b').textContent())!;
    await page.keyboard.press('Space');
    await tabTo(page, 'Accept venue');
    await page.keyboard.press('Enter');
    await expect.poll(() => flash(page).textContent()).toBe(`Venue accepted for ${name}: the deal is now outreach`);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('flash');
    const moved = await dealOf(deal.id);
    expect([moved.stage, moved.venue?.name]).toEqual(['outreach', venue]);

    const call = (await deals()).find((d) => d.openCheckpoints.some((c) => c.kind === 'call_outcome'))!;
    const cp = call.openCheckpoints.find((c) => c.kind === 'call_outcome')!;
    await tabTo(page, `Acknowledge call outcome for ${nameOf(call)}`);
    await page.keyboard.press('Enter');
    await expect.poll(() => flash(page).textContent()).toBe(`Acknowledged: call outcome for ${nameOf(call)}`);
    const resolved = (await dfy<{ records: { id: string; resolved: boolean; resolvedBy: string }[] }>('GET', `/checkpoints?dealId=${call.id}`)).data.records;
    expect(resolved.find((c) => c.id === cp.id)).toMatchObject({ resolved: true, resolvedBy: 'acknowledged' });
    await page.close();
  });

  it('bob sees none of alice’s deals or checkpoints, and has no fleet to switch to', async () => {
    const context = await guardedContext(browser, PHONE_SIZE, [cloud.url], problems);
    const page = await context.newPage();
    await signIn(page, '/console/placements', BOB);
    await page.getByRole('heading', { level: 1, name: 'Placements' }).waitFor();
    await page.getByText('Nothing waits for you: no open checkpoint.').waitFor();
    await page.getByText('No placement deals yet.').waitFor();
    const text = (await page.locator('main').textContent())!;
    for (const d of await deals()) {
      expect(text).not.toContain(d.id);
      if (d.venue) expect(text).not.toContain(d.venue.name);
    }
    expect(await axeSerious(page)).toEqual([]);
    await page.goto(`${cloud.url}/console/access`);
    await page.getByRole('heading', { level: 1, name: 'Switch fleet' }).waitFor();
    await page.getByText('No operator has given you an access group').waitFor();
    expect(await page.locator('.switched').count()).toBe(0);
    expect(await axeSerious(page)).toEqual([]);
    await context.close();
  });

  it('dave, given a group on alice’s fleet through the access API, switches onto it on a phone: the banner, only the group’s machines; then back', async () => {
    const group = await api<{ id: string; name: string }>(cloud.url, 'POST', '/api/v1/access/groups', SANDBOX.alice, {
      name: 'Console check route',
      machineNos: ['SBX-ALICE-0002'],
    });
    expect(group.status).toBe(200);
    const assigned = await api(cloud.url, 'PUT', '/api/v1/access/assignment', SANDBOX.alice, { username: DAVE.email, groupId: group.data.id });
    expect(assigned.status).toBe(200);

    const context = await guardedContext(browser, PHONE_SIZE, [cloud.url], problems);
    const page = await context.newPage();
    const seen = problems.length;
    await signIn(page, '/console/access', DAVE);
    await page.getByRole('heading', { level: 1, name: 'Switch fleet' }).waitFor();
    const row = page.locator('.grants-table tbody tr').filter({ hasText: ALICE.email });
    expect(await row.textContent()).toContain(group.data.name);
    expect(await axeSerious(page)).toEqual([]);
    await page.screenshot({ path: shot('access-switch-phone'), fullPage: true });
    await page.getByRole('button', { name: new RegExp(`^Switch to .* as ${group.data.name}$`) }).click();
    await page.waitForURL(`${cloud.url}/console/`);
    const banner = page.getByRole('region', { name: 'Switched fleet' });
    await expect.poll(() => banner.locator('p').textContent()).toBe(`Viewing ${ALICE.email}’s fleet as ${group.data.name}.`);
    await page.getByRole('heading', { level: 1, name: 'Machines' }).waitFor();
    await expect.poll(() => page.locator('.fleet-table tbody tr').count()).toBe(1);
    const main = (await page.locator('main').textContent())!;
    expect(main).toContain('SBX-ALICE-0002');
    for (const other of ['SBX-ALICE-0001', 'SBX-ALICE-0003', 'SBX-DAVE']) expect(main).not.toContain(other);
    expect(await axeSerious(page)).toEqual([]);
    await page.screenshot({ path: shot('access-switch-banner-phone'), fullPage: true });
    // outside the group: the same not-found page; the pipeline is not the group's to see, said in the API's words
    await page.goto(`${cloud.url}/console/machines/SBX-ALICE-0001`);
    await page.getByRole('heading', { level: 1, name: 'Machine not found' }).waitFor();
    await page.goto(`${cloud.url}/console/placements`);
    await page.getByRole('heading', { level: 1, name: 'Placements' }).waitFor();
    await page.locator('.flash.error').waitFor();
    expect((await page.locator('.flash.error').textContent())!.length).toBeGreaterThan(0);
    expect(await page.locator('li.checkpoint').count()).toBe(0);
    // the fleet's alert and stock reads the group may not make, the machine outside it, the pipeline: refusals only
    await expectRefusals(seen, 403, 404);
    await cold(context, PHONE_SIZE, '/console/access', 'Switch fleet', 'access, switched (phone)');

    await banner.getByRole('button', { name: 'Back to my fleet' }).click();
    await page.waitForURL(`${cloud.url}/console/access`);
    await page.getByText(`You are signed in as ${DAVE.email}, on your own fleet.`).waitFor();
    expect(await page.locator('.switched').count()).toBe(0);
    await page.goto(`${cloud.url}/console/`);
    await page.getByRole('heading', { level: 1, name: 'Machines' }).waitFor();
    expect(await page.locator('main').textContent()).not.toContain('SBX-ALICE');
    daveState = await context.storageState();
    await context.close();
  });

  it('on a desktop dave switches, sees the banner on every page, and signing out ends both sessions', async () => {
    const context = await guardedContext(browser, { ...DESKTOP_SIZE, storageState: daveState }, [cloud.url], problems);
    const page = await context.newPage();
    const seen = problems.length;
    await page.goto(`${cloud.url}/console/access`);
    await page.getByRole('heading', { level: 1, name: 'Switch fleet' }).waitFor();
    await page.getByRole('button', { name: /^Switch to / }).click();
    await page.waitForURL(`${cloud.url}/console/`);
    await page.getByRole('region', { name: 'Switched fleet' }).waitFor();
    await page.goto(`${cloud.url}/console/access`);
    await page.getByRole('heading', { level: 2, name: /^Group / }).waitFor();
    expect(await page.locator('main').textContent()).toContain('SBX-ALICE-0002');
    await page.getByRole('region', { name: 'Switched fleet' }).waitFor();
    expect(await axeSerious(page)).toEqual([]);
    await page.screenshot({ path: shot('access-switch-desktop'), fullPage: true });
    const cookies = await context.cookies();
    const fenced = cookies.find((c) => c.name === 'vend_session')!.value;
    const own = cookies.find((c) => c.name === 'vend_home')!;
    expect([own.path, own.httpOnly, own.sameSite]).toEqual(['/', true, 'Strict']);
    expect((await fetch(`${cloud.url}/api/v1/machines`, { headers: { authorization: `Bearer ${own.value}` } })).status).toBe(200);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/signin/);
    for (const token of [fenced, own.value]) {
      const r = await fetch(`${cloud.url}/api/v1/machines`, { headers: { authorization: `Bearer ${token}` } });
      expect(r.status).toBe(401);
    }
    expect((await context.cookies()).filter((c) => c.name.startsWith('vend_session') || c.name === 'vend_home')).toEqual([]);
    await page.goto(`${cloud.url}/console/`);
    expect(new URL(page.url()).pathname).toBe('/signin');
    // the fleet's reads the group may not make are the only failed requests here
    if (problems.length > seen) await expectRefusals(seen, 403);
    await context.close();
  });

  it('nothing in any page reached another origin or logged an error', () => {
    expect(problems).toEqual([]);
  });
});
