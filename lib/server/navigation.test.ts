import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { navFor } from './navigation';

/** The action a console page passes to `requirePage`, read from its source. */
function pageAction(href: string): string {
  const file = path.join(process.cwd(), 'app/(console)', href, 'page.tsx');
  const match = /requirePage\('([^']+)'/.exec(readFileSync(file, 'utf8'));
  if (!match) throw new Error(`${file} calls no requirePage`);
  return match[1]!;
}

describe('the sidebar', () => {
  it('offers the webhook logs to every role that may read them', () => {
    for (const role of ['admin', 'finance', 'support', 'viewer'] as const)
      expect(navFor(role).map((item) => item.label)).toContain('Webhooks');
  });

  it('asks of each entry the permission its page asks for', () => {
    for (const item of navFor('admin')) {
      if (item.href === '/admin/users') continue; // the admin area checks per tab (app/(console)/admin/layout.tsx)
      expect(item.action, item.href).toBe(pageAction(item.href));
    }
  });
});
