import { describe, expect, it } from 'vitest';
import { qrCodeDataUrl } from './qr-code';

describe('qrCodeDataUrl', () => {
  it('draws the text as an SVG data URL, different texts differently', async () => {
    const a = await qrCodeDataUrl('0x1111111111111111111111111111111111111111');
    const b = await qrCodeDataUrl('0x2222222222222222222222222222222222222222');
    expect(a).toMatch(/^data:image\/svg\+xml;base64,/);
    const svg = Buffer.from(a.split(',')[1] ?? '', 'base64').toString('utf8');
    expect(svg).toMatch(/^<svg [^>]*viewBox="0 0 \d+ \d+"/);
    expect(a).not.toBe(b);
  });
});
