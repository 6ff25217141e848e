// The authenticator-app secret during enrolment: as a QR code and as text to type by hand. Shown once.
import { CopyButton } from '@/components/ui/copy-button';

export interface TotpSecretPanelProps {
  qrCode: string;
  secret: string;
  uri: string;
}

export function TotpSecretPanel({ qrCode, secret, uri }: TotpSecretPanelProps) {
  return (
    <div className="grid gap-3 rounded-md border p-4">
      <p className="text-sm">Scan this code with your authenticator app, or enter the secret key by hand.</p>
      {/* biome-ignore lint/performance/noImgElement: a generated SVG data URL, not an optimisable asset */}
      <img
        src={qrCode}
        alt="QR code for your authenticator app"
        width={180}
        height={180}
        className="bg-white p-2"
      />
      <div className="grid gap-1">
        <span className="text-xs text-muted-foreground">Secret key</span>
        <div className="flex items-center gap-2">
          <code data-testid="totp-secret" className="break-all font-mono text-sm">
            {secret}
          </code>
          <CopyButton value={secret} label="Copy secret key" className="size-8" />
        </div>
      </div>
      <details className="text-xs text-muted-foreground">
        <summary>Setup address</summary>
        <code className="break-all font-mono">{uri}</code>
      </details>
    </div>
  );
}
