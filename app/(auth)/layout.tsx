import { SandboxBanner } from '@/components/shell/sandbox-banner';

export default function AuthLayout({ children }: { children: React.ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col">
      <SandboxBanner />
      <main className="flex flex-1 items-center justify-center p-6">{children}</main>
    </div>
  );
}
