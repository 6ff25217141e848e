import 'server-only';
import QRCode from 'qrcode';

/** `text` as a QR code: an SVG data URL an <img> shows (authenticator enrolment, a deposit address). */
export async function qrCodeDataUrl(text: string): Promise<string> {
  const svg = await QRCode.toString(text, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}
