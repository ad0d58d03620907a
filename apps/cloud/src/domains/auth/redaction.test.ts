import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../logger.ts';

describe('secrets of the auth flows are redacted from logs', () => {
  it('drops passwords, client secrets, tokens, tickets, codes and keys wherever they sit one level deep', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const log = createLogger({ level: 'info', pretty: false, destination: sink });
    const secrets = {
      password: 'pw-SECRET-1',
      client_secret: 'cs-SECRET-2',
      access_token: 'vat_SECRET-3',
      token: 'vat_SECRET-4',
      ticket: 'vmt_SECRET-5',
      idToken: 'eyJ.SECRET-6',
      recoveryCode: 'ABCD-SECRET-7',
      recoveryCodes: ['ABCD-SECRET-8'],
      otpauthUrl: 'otpauth://totp/x?secret=SECRET9',
      secret: 'SECRET10',
      apiKey: 'vk_0.SECRET11',
    };
    log.info({ body: secrets, data: secrets }, 'auth flow');
    log.info({ req: { headers: { authorization: 'Bearer vat_SECRET12', 'x-api-key': 'vk_1.SECRET13' }, body: { code: '123456' } } }, 'request');
    const out = lines.join('');
    expect(out).toContain('auth flow');
    expect(out).toContain('[redacted]');
    expect(out).not.toMatch(/SECRET/);
    expect(out).not.toContain('123456');
  });
});
