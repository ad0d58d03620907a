import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '@vend/protocol';
import { DownloadError, downloadArtifact, undiciArtifactFetch } from '@vend/agent';
import type { DownloadParams } from '@vend/agent';
import { startArtifactServer } from './support/upgrade-https.ts';
import type { ArtifactServer } from './support/upgrade-https.ts';

// The downloader against a real HTTPS server (TUF's endless-data and slow-retrieval attacks, no
// redirects, only the pinned CA), spec 2 §4.4 step 9 and §8 (downloads use at least 60 s).

let server: ArtifactServer;
let tmp: string;
const data = Buffer.from(Array.from({ length: 200_000 }, (_, i) => (i * 7919) % 251));
const sha256 = createHash('sha256').update(data).digest('hex');

beforeAll(async () => {
  server = await startArtifactServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'upgrade-download-'));
  server.mode = 'normal';
  server.sent = 0;
  server.requests.length = 0;
});
afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

function params(p: Partial<DownloadParams> = {}): DownloadParams {
  const url = server.put('a.tar.gz', data);
  return {
    url,
    size: data.length,
    sha256,
    dest: path.join(tmp, 'a.part'),
    fetch: undiciArtifactFetch({ dispatcher: server.dispatcher() }),
    clock: new ManualClock(0),
    ...p,
  };
}

async function refusal(p: DownloadParams): Promise<DownloadError> {
  const err = await downloadArtifact(p).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DownloadError);
  expect(fs.existsSync(p.dest)).toBe(false);
  return err as DownloadError;
}

describe('downloading an artifact over HTTPS', () => {
  it('downloads the signed bytes through the pinned CA', async () => {
    const p = params();
    await downloadArtifact(p);
    expect(fs.readFileSync(p.dest).equals(data)).toBe(true);
    expect(fs.statSync(p.dest).mode & 0o777).toBe(0o600);
  });

  it('refuses a server it does not trust (system CAs only)', async () => {
    const err = await refusal(params({ fetch: undiciArtifactFetch() }));
    expect(err.code).toBe('download-failed');
    expect(err.message).toMatch(/self.signed|certificate/i);
  });

  it('refuses a digest mismatch', async () => {
    const err = await refusal(params({ sha256: 'ab'.repeat(32) }));
    expect(err.code).toBe('digest-mismatch');
  });

  it('refuses a Content-Length above the signed size before reading the body', async () => {
    server.mode = 'overlong-header';
    const err = await refusal(params());
    expect(err).toMatchObject({ code: 'size-mismatch', message: expect.stringMatching(/announces 800000 bytes; the signed size is 200000/) });
  });

  it('stops an endless body at the signed size (endless data)', async () => {
    server.mode = 'endless';
    const err = await refusal(params());
    expect(err).toMatchObject({ code: 'size-mismatch', message: expect.stringMatching(/stopped at the signed size/) });
    // the server got to write far less than its 64 MiB before the client hung up
    await new Promise((r) => setTimeout(r, 50));
    expect(server.sent).toBeLessThan(16 * 1024 * 1024);
  });

  it('refuses a body shorter than the signed size', async () => {
    const err = await refusal(params({ size: data.length + 1 }));
    expect(err.code).toBe('size-mismatch');
  });

  it('never follows a redirect', async () => {
    server.mode = 'redirect';
    const err = await refusal(params());
    expect(err).toMatchObject({ code: 'download-failed', message: 'the artifact server answered 302' });
    expect(server.requests).toEqual(['/agent/a.tar.gz']);
  });

  it('gives up on a stalled transfer after 60 s on the clock', async () => {
    server.mode = 'stall-half';
    const clock = new ManualClock(0);
    const p = params({ clock });
    const pending = refusal(p);
    for (let i = 0; i < 500 && !fs.existsSync(p.dest); i++) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 50));
    clock.advance(59_000);
    await new Promise((r) => setTimeout(r, 20));
    expect(fs.existsSync(p.dest)).toBe(true); // still waiting
    clock.advance(1_000);
    expect((await pending).message).toMatch(/stalled: no bytes for 60 s/);
  });

  it('gives up on a trickle that misses the deadline (slow retrieval)', async () => {
    server.mode = 'trickle';
    const clock = new ManualClock(0);
    // 200,000 bytes at no less than 100 kB/s: deadline 60 s + 2 s
    const p = params({ clock, limits: { minBytesPerSecond: 100_000 } });
    const pending = refusal(p);
    for (let i = 0; i < 500 && !fs.existsSync(p.dest); i++) await new Promise((r) => setTimeout(r, 5));
    // bytes keep coming (so the stall timer never fires) but the clock runs past the deadline
    for (let s = 0; s < 62; s++) {
      await new Promise((r) => setTimeout(r, 3));
      clock.advance(1_000);
    }
    expect((await pending).message).toMatch(/slow retrieval: 200000 bytes not received within 62 s/);
  });

  it('a body that ignores the abort signal still cannot hold the download', async () => {
    const clock = new ManualClock(0);
    const p = params({
      clock,
      fetch: async () => ({
        status: 200,
        contentLength: data.length,
        body: (async function* () {
          yield data.subarray(0, 1000);
          await new Promise(() => {}); // never another byte, never an error
        })(),
        cancel: () => {},
      }),
    });
    const pending = refusal(p);
    for (let i = 0; i < 500 && !fs.existsSync(p.dest); i++) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 20));
    clock.advance(60_000);
    expect((await pending).message).toMatch(/stalled/);
  });

  it('stops when asked to (the daemon stopping)', async () => {
    server.mode = 'stall-half';
    const ctl = new AbortController();
    const p = params({ signal: ctl.signal });
    const pending = refusal(p);
    for (let i = 0; i < 500 && !fs.existsSync(p.dest); i++) await new Promise((r) => setTimeout(r, 5));
    ctl.abort();
    expect((await pending).message).toBe('the download was stopped');
  });
});
