import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { SANDBOX, api, cleanup, tempDir } from './support/cabinet-rig.ts';
import type { CloudProc } from './support/cabinet-rig.ts';
import { CHROMIUM, PHONE_SIZE, axeSerious, guardedContext } from './support/kiosk-browser.ts';
import { ALICE, BOB, DESKTOP_SIZE, consoleShot, signIn as signInAt, tabTo, weigh, startConsoleRig } from './support/console-browser.ts';

// The console's restock runs (/console/runs) and the page a person's account may not use, in chromium against the cloud
// sandbox (docs/console.md). Through the public API alice makes a crew, invites dave (the sandbox's route driver, an
// account with no machines of its own), he accepts, and alice plans a run of one of her machines for that crew. Dave on a
// phone sees exactly the runs the API lists for him, the run's pick list as the API froze it, starts and completes it;
// his own money and orders pages hold none of alice's data; switched onto an access group of alice's fleet, the pages the
// API refuses a group session say so calmly in the API's words. Alice on a desktop sees the run and cancels another by
// keyboard only; a start the API refuses dave (outside his access group) is said in its words; bob sees none of it.

const DAVE = { email: 'dave@sandbox.vend.test', password: 'sandbox-dave-pass' };
const DAVE_KEY = 'vk_5bda0e0000000001.sbx-dave-key-4a17e9b3';
const dir = tempDir('console-runs-');
let cloud: CloudProc;
let browser: Browser;
let phone: BrowserContext;
const problems: string[] = [];
const shot = consoleShot;
const signIn = (page: Page, path: string, who: { email: string; password: string; totp?: string }) => signInAt(page, cloud.url, path, who);
const flash = (page: Page) => page.locator('#flash');

interface Line {
  aisleNo: number;
  pick: number;
  filled: number | null;
}
interface Run {
  id: string;
  crewId: string;
  machineNo: string;
  status: string;
  createdBy: string;
  completedBy: string | null;
  cancelReason: string | null;
  lines: Line[];
}
const restock = <T>(key: string, method: string, path: string, body?: unknown) => api<T>(cloud.url, method, `/api/v1/restock${path}`, key, body);
const runOf = async (id: string) => (await restock<Run>(SANDBOX.alice, 'GET', `/${id}`)).data;
const listed = async (key: string) => (await restock<{ records: Run[] }>(key, 'GET', '?size=50')).data.records;
const card = (page: Page, id: string) => page.locator(`article.run[data-run="${id}"]`);

/** Takes the failed requests chromium logs for the refusals a test provoked (these statuses), and nothing else. */
async function expectRefusals(seen: number, ...statuses: number[]): Promise<void> {
  await expect.poll(() => problems.length).toBeGreaterThan(seen);
  expect(problems.slice(seen).filter((p) => !statuses.some((s) => p.includes(`status of ${s}`)))).toEqual([]);
  problems.splice(seen);
}

async function cold(context: BrowserContext, size: object, path: string, heading: string, label: string): Promise<void> {
  const fresh = await guardedContext(browser, { ...size, storageState: await context.storageState() }, [cloud.url], problems);
  const page = await fresh.newPage();
  await page.goto(`${cloud.url}${path}`);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  process.stdout.write(`console ${label} (sandbox, cold): ${JSON.stringify(await weigh(page))}\n`);
  await fresh.close();
}

let run: Run;
let crewId: string;
let solo: Run;
let aliceMachines: { machineNo: string; name: string }[];

describe.skipIf(!CHROMIUM)('restock runs for a crew member and the not-available page in chromium', () => {
  beforeAll(async () => {
    ({ cloud, browser, phone } = await startConsoleRig(dir, problems));

    // a crew of alice's with dave in it, and a run of her machine for that crew — all through the public API
    const crew = await api<{ id: string }>(cloud.url, 'POST', '/api/v1/crew', SANDBOX.alice, { name: 'Library route' });
    const invite = await api<{ inviteId: string; token: string }>(cloud.url, 'POST', `/api/v1/crew/${crew.data.id}/invite`, SANDBOX.alice, {
      email: DAVE.email,
      role: 'member',
    });
    const accepted = await api(
      cloud.url,
      'POST',
      `/api/v1/crew/accept-invite/${invite.data.inviteId}?token=${encodeURIComponent(invite.data.token)}`,
      DAVE_KEY,
    );
    expect([crew.status, invite.status, accepted.status]).toEqual([200, 200, 200]);
    const planned = await restock<Run>(SANDBOX.alice, 'POST', '', { machineNo: 'SBX-ALICE-0001', crewId: crew.data.id, notes: 'Console check' });
    expect(planned.status).toBe(200);
    run = planned.data;
    crewId = crew.data.id;
    // a crew dave is not in, with a run he must never see
    const own = await api<{ id: string }>(cloud.url, 'POST', '/api/v1/crew', SANDBOX.alice, { name: 'Alice alone' });
    solo = (await restock<Run>(SANDBOX.alice, 'POST', '', { machineNo: 'SBX-ALICE-0003', crewId: own.data.id })).data;
    aliceMachines = (await api<{ records: { machineNo: string; name: string }[] }>(cloud.url, 'GET', '/api/v1/machines', SANDBOX.alice)).data.records;
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await cleanup(dir);
  });

  it('on a phone, dave (a crew member) sees exactly the runs the API lists for him, the pick list as the API froze it, then starts and completes the run', async () => {
    const page = await phone.newPage();
    await signIn(page, '/console/runs', DAVE);
    await page.getByRole('heading', { level: 1, name: 'Restock runs' }).waitFor();
    const his = await listed(DAVE_KEY);
    expect(his.map((r) => r.id)).toContain(run.id);
    expect(his.map((r) => r.id)).not.toContain(solo.id);
    expect(await page.locator('article.run').evaluateAll((els) => els.map((e) => e.getAttribute('data-run')))).toEqual(his.map((r) => r.id));
    expect(await page.locator('main').textContent()).not.toContain('SBX-ALICE-0003');

    // the pick list: aisle and pick per line, exactly the API's
    const rows = card(page, run.id).locator('table.run-lines tbody tr');
    const shown = await rows.evaluateAll((trs) =>
      trs.map((tr) => [Number(tr.querySelector('th')!.textContent), Number(tr.querySelector('.pick')!.textContent)]),
    );
    expect(shown).toEqual(run.lines.map((l) => [l.aisleNo, l.pick]));
    expect(run.lines.some((l) => l.pick > 0)).toBe(true);
    // a member cancels only a run they planned: no cancel offered on alice's run
    expect(await page.getByRole('button', { name: `Cancel the run on ${run.machineNo}` }).count()).toBe(0);
    expect(await axeSerious(page)).toEqual([]);
    await page.screenshot({ path: shot('runs-phone'), fullPage: true });

    await page.getByRole('button', { name: `Start the run on ${run.machineNo}` }).click();
    await expect.poll(() => flash(page).textContent()).toBe(`Run on ${run.machineNo} started`);
    expect((await runOf(run.id)).status).toBe('in_progress');
    expect(await card(page, run.id).getAttribute('data-status')).toBe('in_progress');

    await page.getByRole('button', { name: `Complete the run on ${run.machineNo}` }).click();
    const dialog = page.getByRole('dialog', { name: `Complete the run on ${run.machineNo}?` });
    await dialog.waitFor();
    // the pick is the default; the dialog alone moves nothing
    const first = run.lines.find((l) => l.pick > 0)!;
    expect(await dialog.locator(`#fill-${first.aisleNo}`).inputValue()).toBe(String(first.pick));
    await dialog.locator(`#fill-${first.aisleNo}`).fill(String(first.pick - 1));
    expect((await runOf(run.id)).status).toBe('in_progress');
    expect(await axeSerious(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Complete the run' }).click();
    await expect.poll(() => flash(page).textContent()).toBe(`Run on ${run.machineNo} completed`);
    const done = await runOf(run.id);
    expect([done.status, done.completedBy]).toEqual(['done', DAVE.email]);
    expect(done.lines.map((l) => l.filled)).toEqual(run.lines.map((l) => (l.aisleNo === first.aisleNo ? l.pick - 1 : l.pick)));
    expect(await card(page, run.id).getAttribute('data-status')).toBe('done');
    expect(await card(page, run.id).locator('.badge.done').textContent()).toBe('done');
    await page.close();
    await cold(phone, PHONE_SIZE, '/console/runs', 'Restock runs', 'runs, crew member (phone)');
  });

  it('dave’s own fleet, orders and money hold none of alice’s data; switched onto an access group, the pages the API refuses say so in its words', async () => {
    const page = await phone.newPage();
    const daveMachines = (await api<{ records: { machineNo: string }[] }>(cloud.url, 'GET', '/api/v1/machines', DAVE_KEY)).data.records;
    await page.goto(`${cloud.url}/console/`);
    await page.getByRole('heading', { level: 1, name: 'Machines' }).waitFor();
    await expect.poll(() => page.locator('.fleet-table tbody tr').count()).toBe(daveMachines.length);
    for (const [path, heading] of [
      ['/console/', 'Machines'],
      ['/console/orders', 'Orders'],
      ['/console/money', 'Money'],
    ] as const) {
      await page.goto(`${cloud.url}${path}`);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      const text = (await page.locator('main').textContent())!;
      for (const m of aliceMachines) {
        expect(text).not.toContain(m.machineNo);
        expect(text).not.toContain(m.name);
      }
    }

    // the sandbox's group alice gave dave on her fleet (two machines, the one of his run among them): he switches onto it
    await page.goto(`${cloud.url}/console/access`);
    const seen = problems.length;
    await page.getByRole('button', { name: /^Switch to .* as Downtown route$/ }).click();
    await page.waitForURL(`${cloud.url}/console/`);
    await page.getByRole('region', { name: 'Switched fleet' }).waitFor();
    const fenced = (await phone.cookies()).find((c) => c.name === 'vend_session')!.value;
    const refusal = async (path: string) => {
      const r = await fetch(`${cloud.url}${path}`, { headers: { authorization: `Bearer ${fenced}` } });
      return { status: r.status, message: ((await r.json()) as { message: string }).message };
    };

    for (const [path, apiPath] of [
      ['/console/campaigns', '/api/v1/campaigns'],
      ['/console/agents', '/api/v1/agent/fleet'],
      ['/console/runs', '/api/v1/restock'],
    ] as const) {
      const answer = await refusal(apiPath);
      expect(answer.status).toBe(403);
      await page.goto(`${cloud.url}${path}`);
      await page.getByRole('heading', { level: 1, name: 'Not available to your account' }).waitFor();
      expect(await page.locator('.not-available .refusal').textContent()).toBe(answer.message);
      expect(await page.getByText('Something went wrong').count()).toBe(0);
      expect(await page.getByRole('link', { name: 'Your restock runs' }).getAttribute('href')).toBe('/console/runs');
    }
    // the money page says a refusal in its own place (with its period form), in the same words
    const money = await refusal('/api/v1/pnl');
    expect(money.status).toBe(403);
    await page.goto(`${cloud.url}/console/money`);
    await page.getByRole('heading', { level: 1, name: 'Money' }).waitFor();
    await expect.poll(() => page.locator('main').textContent()).toContain(money.message);
    expect(await page.getByText('Something went wrong').count()).toBe(0);

    await page.goto(`${cloud.url}/console/campaigns`);
    await page.getByRole('heading', { level: 1, name: 'Not available to your account' }).waitFor();
    expect(await axeSerious(page)).toEqual([]);
    await page.screenshot({ path: shot('not-available-phone'), fullPage: true });
    await page.getByRole('region', { name: 'Switched fleet' }).getByRole('button', { name: 'Back to my fleet' }).click();
    await page.waitForURL(`${cloud.url}/console/access`);
    await page.getByText(`You are signed in as ${DAVE.email}, on your own fleet.`).waitFor();
    // the refusals of the group session (pages, and the fleet's reads it may not make) are the only failed requests
    await expectRefusals(seen, 403);
    await page.close();
  }, 60_000);

  it('on a desktop alice sees the crew’s run with what dave put in, and cancels her other run by keyboard only', async () => {
    const desktop = await guardedContext(browser, DESKTOP_SIZE, [cloud.url], problems);
    const page = await desktop.newPage();
    await signIn(page, '/console/runs', ALICE);
    await page.getByRole('heading', { level: 1, name: 'Restock runs' }).waitFor();
    const hers = await listed(SANDBOX.alice);
    expect(await page.locator('article.run').evaluateAll((els) => els.map((e) => e.getAttribute('data-run')))).toEqual(hers.map((r) => r.id));
    const done = await runOf(run.id);
    const filled = await card(page, run.id)
      .locator('table.run-lines tbody tr')
      .evaluateAll((trs) => trs.map((tr) => Number(tr.querySelectorAll('td')[4]!.textContent)));
    expect(filled).toEqual(done.lines.map((l) => l.filled));
    expect(await card(page, run.id).textContent()).toContain(`completed by ${DAVE.email}`);
    expect(await axeSerious(page)).toEqual([]);
    await page.screenshot({ path: shot('runs-desktop'), fullPage: true });

    // keyboard only: Cancel on the run, the dialog (reason first), its confirm
    await tabTo(page, `Cancel the run on ${solo.machineNo}`);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: `Cancel the run on ${solo.machineNo}?` });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(solo.id);
    await page.keyboard.type('Machine moved');
    await tabTo(page, 'Cancel the run');
    await page.keyboard.press('Enter');
    await expect.poll(() => flash(page).textContent()).toBe(`Run on ${solo.machineNo} cancelled`);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('flash');
    const cancelled = await runOf(solo.id);
    expect([cancelled.status, cancelled.cancelReason]).toEqual(['cancelled', 'Machine moved']);
    expect(await card(page, solo.id).getAttribute('data-status')).toBe('cancelled');

    // the API's status filter, kept in the address
    await page.goto(`${cloud.url}/console/runs?status=done`);
    await page.getByRole('heading', { level: 1, name: 'Restock runs' }).waitFor();
    const doneRuns = (await restock<{ records: Run[] }>(SANDBOX.alice, 'GET', '?status=done&size=50')).data.records;
    expect(await page.locator('article.run').evaluateAll((els) => els.map((e) => e.getAttribute('data-run')))).toEqual(doneRuns.map((r) => r.id));
    await cold(desktop, DESKTOP_SIZE, '/console/runs', 'Restock runs', 'runs, operator (desktop)');
    await desktop.close();
  });

  it('a move the API refuses dave (a run of a machine outside his access group on alice’s fleet) is said in its words; nothing moves', async () => {
    const outside = await restock<Run>(SANDBOX.alice, 'POST', '', { machineNo: 'SBX-ALICE-0003', crewId });
    expect(outside.status).toBe(200);
    const refused = await restock(DAVE_KEY, 'POST', `/${outside.data.id}/start`);
    expect(refused.status).toBe(403);
    const page = await phone.newPage();
    await page.goto(`${cloud.url}/console/runs?status=planned`);
    await page.getByRole('heading', { level: 1, name: 'Restock runs' }).waitFor();
    const seen = problems.length;
    await page.getByRole('button', { name: 'Start the run on SBX-ALICE-0003' }).click();
    await expect.poll(() => flash(page).textContent()).toBe(refused.message);
    expect(await flash(page).getAttribute('class')).toContain('error');
    await expectRefusals(seen, 403);
    expect((await runOf(outside.data.id)).status).toBe('planned');
    await page.close();
  });

  it('bob sees none of alice’s runs', async () => {
    const context = await guardedContext(browser, PHONE_SIZE, [cloud.url], problems);
    const page = await context.newPage();
    await signIn(page, '/console/runs', BOB);
    await page.getByRole('heading', { level: 1, name: 'Restock runs' }).waitFor();
    const text = (await page.locator('main').textContent())!;
    for (const r of await listed(SANDBOX.alice)) expect(text).not.toContain(r.id);
    for (const m of aliceMachines) expect(text).not.toContain(m.machineNo);
    expect(await axeSerious(page)).toEqual([]);
    await context.close();
  });

  it('nothing in any page reached another origin or logged an error', () => {
    expect(problems).toEqual([]);
  });
});
