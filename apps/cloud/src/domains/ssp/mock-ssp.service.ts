import { PNG } from 'pngjs';
import QRCode from 'qrcode';
import type { Clock } from '@vend/protocol';
import type { Config } from '../../config.ts';
import type { AppStore } from '../../repos.ts';
import { newId } from '../../crypto/ids.ts';
import { AppError, conflict, notFound, unauthorized } from '../../http/errors.ts';
import { formatTimestamp } from '../../http/time-format.ts';
import { offsetOf } from '../../http/paging.ts';
import type { MockLeaseRow } from './mock-ssp.repo.ts';
import type { Receipt, ReceiptsPage, ReceiptsQuery } from './mock-ssp.schemas.ts';
import type { WireAd, WireGetAdRequest, WireGetAdResponse } from './vistar-wire.ts';

/**
 * The built-in mock SSP's terms (spec 2 §4.2): net CPM 12.0, at most 3 ads per request, leases good
 * for an hour, three portrait PNG creatives it serves itself. The network id and API key are public
 * sandbox constants (docs/sandbox.md): get_ad refuses others with 401, as an SSP would.
 */
export const MOCK_SSP = {
  networkId: 'sandbox-network',
  apiKey: 'sandbox-ssp-key',
  netCpmMillis: 12_000,
  maxAds: 3,
  leaseMs: 3_600_000,
  creatives: [
    { advertiser: 'Sandbox Soda', rgb: [0xd9, 0x3b, 0x3b] },
    { advertiser: 'Sandbox Air', rgb: [0x2f, 0x6f, 0xd6] },
    { advertiser: 'Sandbox Bank', rgb: [0x2e, 0x9e, 0x5b] },
  ],
  width: 1080,
  height: 1920,
  /** An ad's length when the display area names none. */
  defaultSeconds: 15,
} as const;

/** Where the mock's routes live: its PoP and creative URLs are built from it. */
export const MOCK_SSP_BASE_PATH = '/ssp/mock';

export interface MockSspDeps {
  store: AppStore;
  clock: Clock;
  /** `publicBaseUrl`: the address absolute URLs use (else the request's origin). */
  config: Pick<Config, 'publicBaseUrl'>;
}

/**
 * The mock SSP: leases ads (`ssp_mock_leases`), takes each lease's proof of play once, lists what was
 * popped, and serves its creatives. Stands in for an outside party, so it keeps its own book and
 * knows nothing of machines or the play ledger.
 */
export class MockSspService {
  readonly #pngs = new Map<number, Promise<Buffer>>();

  constructor(private readonly deps: MockSspDeps) {}

  /**
   * One ad per display area that can show a PNG, for at most 3 areas, each a new lease. `origin`:
   * the caller's origin for absolute URLs (`publicBaseUrl` wins when set); null for paths on this
   * service (the in-process adapter).
   */
  async getAd(req: WireGetAdRequest, origin: string | null): Promise<WireGetAdResponse> {
    if (req.network_id !== MOCK_SSP.networkId || req.api_key !== MOCK_SSP.apiKey) {
      throw unauthorized('Invalid API key: unknown network_id or api_key');
    }
    const now = this.deps.clock.now();
    const base = origin === null ? MOCK_SSP_BASE_PATH : `${this.deps.config.publicBaseUrl ?? origin}${MOCK_SSP_BASE_PATH}`;
    const areas = req.display_area.filter((a) => a.supported_media.some((m) => m.toLowerCase() === 'image/png')).slice(0, MOCK_SSP.maxAds);
    const expiresAt = now + MOCK_SSP.leaseMs;
    const ads: WireAd[] = areas.map((area, i) => {
      const n = (i % MOCK_SSP.creatives.length) + 1;
      const creative = MOCK_SSP.creatives[n - 1]!;
      const leaseId = newId('lease', now);
      const seconds = area.max_duration ?? area.min_duration ?? MOCK_SSP.defaultSeconds;
      return {
        lease_id: leaseId,
        display_area_id: area.id,
        creative_id: `mock-creative-${n}`,
        advertiser: creative.advertiser,
        asset_url: `${base}/creative/${n}.png`,
        mime_type: 'image/png',
        width: MOCK_SSP.width,
        height: MOCK_SSP.height,
        length_in_seconds: seconds,
        length_in_milliseconds: seconds * 1000,
        proof_of_play_url: `${base}/pop/${encodeURIComponent(leaseId)}`,
        lease_expiry: Math.floor(expiresAt / 1000),
        net_cpm: MOCK_SSP.netCpmMillis / 1000,
      };
    });
    await this.deps.store.repos.sspMock.insertLeases(
      ads.map((ad) => ({
        lease_id: ad.lease_id,
        device_id: req.device_id,
        venue_id: req.venue_id ?? null,
        asset_url: ad.asset_url,
        net_cpm_millis: MOCK_SSP.netCpmMillis,
        issued_at: now,
        expires_at: expiresAt,
        popped_at: null,
      })),
    );
    return { advertisement: ads };
  }

  /**
   * The one-shot proof of play: the first call for a live lease takes it (its receipt); later calls
   * 409, an unknown lease 404, a lease past its expiry 410. Concurrent calls: exactly one wins.
   */
  async pop(leaseId: string): Promise<Receipt> {
    const repo = this.deps.store.repos.sspMock;
    const now = this.deps.clock.now();
    const claimed = await repo.claimPop(leaseId, now);
    const row = await repo.lease(leaseId);
    if (row === undefined) throw notFound('Lease');
    if (claimed) return receiptOf(row);
    if (row.popped_at !== null) throw conflict(`Lease already popped at ${formatTimestamp(row.popped_at)}`);
    throw new AppError('gone', `Lease expired at ${formatTimestamp(row.expires_at)}`);
  }

  /** Popped leases, newest first, optionally of one device. */
  async receipts(q: ReceiptsQuery): Promise<ReceiptsPage> {
    const { total, rows } = await this.deps.store.repos.sspMock.receipts({ deviceId: q.device_id }, q.size, offsetOf(q));
    return { page: q.page, size: q.size, total, receipts: rows.map(receiptOf) };
  }

  /** Creative `1.png` … `3.png`: a 1080×1920 PNG, rendered once per service and kept. */
  creativePng(file: string): Promise<Buffer> {
    const m = /^([1-9])\.png$/.exec(file);
    const n = m ? Number(m[1]) : 0;
    if (n < 1 || n > MOCK_SSP.creatives.length) return Promise.reject(notFound('Creative'));
    let png = this.#pngs.get(n);
    if (png === undefined) {
      png = renderCreative(n);
      this.#pngs.set(n, png);
      png.catch(() => this.#pngs.delete(n)); // a failed render is tried again on the next request
    }
    return png;
  }
}

function receiptOf(row: MockLeaseRow): Receipt {
  return {
    lease_id: row.lease_id,
    device_id: row.device_id,
    venue_id: row.venue_id,
    asset_url: row.asset_url,
    net_cpm: row.net_cpm_millis / 1000,
    issued_at: formatTimestamp(row.issued_at)!,
    expires_at: formatTimestamp(row.expires_at)!,
    popped_at: formatTimestamp(row.popped_at ?? row.issued_at)!,
  };
}

/**
 * Mock creative `n`: the advertiser's colour with a darker header and footer band and, in the middle,
 * a white card carrying a QR code of "Sandbox SSP creative n · <advertiser>" (so a photo of the
 * screen says which ad played).
 */
function renderCreative(n: number): Promise<Buffer> {
  const { width, height } = MOCK_SSP;
  const creative = MOCK_SSP.creatives[n - 1]!;
  const [r, g, b] = creative.rgb;
  const png = new PNG({ width, height, colorType: 2, inputHasAlpha: true });
  const fill = (x0: number, y0: number, x1: number, y1: number, rgb: readonly [number, number, number]) => {
    for (let y = y0; y < y1; y++) {
      for (let x = x0; x < x1; x++) {
        const i = (y * width + x) * 4;
        png.data[i] = rgb[0];
        png.data[i + 1] = rgb[1];
        png.data[i + 2] = rgb[2];
        png.data[i + 3] = 0xff;
      }
    }
  };
  const dark = [Math.round(r * 0.55), Math.round(g * 0.55), Math.round(b * 0.55)] as const;
  fill(0, 0, width, height, [r, g, b]);
  fill(0, 0, width, 240, dark);
  fill(0, height - 240, width, height, dark);

  const qr = QRCode.create(`Sandbox SSP creative ${n} · ${creative.advertiser}`, { errorCorrectionLevel: 'M' });
  const size = qr.modules.size;
  const quiet = 4;
  const scale = Math.floor(720 / (size + quiet * 2));
  const card = scale * (size + quiet * 2);
  const left = Math.floor((width - card) / 2);
  const top = Math.floor((height - card) / 2);
  fill(left, top, left + card, top + card, [0xff, 0xff, 0xff]);
  for (let row = 0; row < size; row++) {
    for (let col = 0; col < size; col++) {
      if (!qr.modules.get(row, col)) continue;
      const x = left + (col + quiet) * scale;
      const y = top + (row + quiet) * scale;
      fill(x, y, x + scale, y + scale, [0x11, 0x11, 0x11]);
    }
  }
  // packed as a stream: the deflate runs on libuv's thread pool, not on the event loop
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    png
      .pack()
      .on('data', (c: Buffer) => chunks.push(c))
      .on('end', () => resolve(Buffer.concat(chunks)))
      .on('error', reject);
  });
}
