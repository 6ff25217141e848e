// A deposit address as a QR code, drawn on the server (an SVG data URL, as the authenticator enrolment does), so
// a sender's wallet app scans it instead of someone retyping forty hex digits.
import { qrCodeDataUrl } from '@/lib/server/qr-code';

export interface AddressQrCodeProps {
  address: string;
  size?: number;
}

export async function AddressQrCode({ address, size = 144 }: AddressQrCodeProps) {
  const src = await qrCodeDataUrl(address);
  return (
    // biome-ignore lint/performance/noImgElement: a generated SVG data URL, not an optimisable asset
    <img
      src={src}
      alt={`QR code of the address ${address}`}
      width={size}
      height={size}
      className="rounded-md border bg-white p-1"
    />
  );
}
