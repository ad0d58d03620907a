import { describe, expect, it } from 'vitest';
import { refusalText } from './api.ts';

describe('a refusal in words', () => {
  it("is the envelope's message, reasons included as the service wrote them", () => {
    const body = { code: 400, message: 'Invalid parameter: body.sellingPrice: must not be negative', data: null };
    expect(refusalText(400, body)).toBe('Invalid parameter: body.sellingPrice: must not be negative');
  });

  it('names the status when the answer is not the envelope (a proxy page, an empty body)', () => {
    expect(refusalText(502, undefined)).toBe('The service answered 502');
    expect(refusalText(503, { message: '' })).toBe('The service answered 503');
    expect(refusalText(500, 'Internal Server Error')).toBe('The service answered 500');
  });
});
