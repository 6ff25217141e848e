import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { neededRoleSentence, PAGE_RULES, pageRuleOf } from './page-rules';

const CONSOLE = path.join(process.cwd(), 'app', '(console)');

/** Every page file under the console group, as its path and the permission its own `requirePage` names. */
function consolePages(dir = CONSOLE): Array<{ path: string; action: string | null }> {
  const pages: Array<{ path: string; action: string | null }> = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) pages.push(...consolePages(full));
    else if (name === 'page.tsx') {
      const route = `/${path.relative(CONSOLE, dir).split(path.sep).join('/')}`.replace(/\/$/, '') || '/';
      const action = readFileSync(full, 'utf8').match(/requirePage\('([^']+)'\)/)?.[1] ?? null;
      pages.push({ path: route, action });
    }
  }
  return pages;
}

describe('page access', () => {
  it('names every console page with the permission the page itself checks, and nothing else', () => {
    const pages = consolePages();
    expect(pages.length).toBeGreaterThan(20);
    for (const page of pages) {
      const rule = PAGE_RULES.find((r) => r.path === page.path);
      expect(rule, page.path).toBeDefined();
      expect(rule?.action, page.path).toBe(page.action);
    }
    const pagePaths = new Set(pages.map((p) => p.path));
    for (const rule of PAGE_RULES) expect(pagePaths.has(rule.path), rule.path).toBe(true);
  });

  it('matches a literal segment before a parameter, and reads the ids of a path', () => {
    expect(pageRuleOf('/wallets/w-1/addresses/new')?.rule.action).toBe('depositAddress.create');
    expect(pageRuleOf('/wallets/w-1/addresses/a%2F1')).toEqual({
      rule: { path: '/wallets/[walletId]/addresses/[addressId]', action: 'read' },
      params: { walletId: 'w-1', addressId: 'a/1' },
    });
    expect(pageRuleOf('/admin/users/')?.rule.action).toBe('users.manage');
    expect(pageRuleOf('/wallets/%E0%A4%A/withdraw')).toBeNull();
    expect(pageRuleOf('/nothing/here')).toBeNull();
  });

  it('says which roles open a page, and the role of the person', () => {
    expect(neededRoleSentence('users.manage', 'support')).toBe(
      'This page needs the admin role; you are signed in as support.',
    );
    expect(neededRoleSentence('withdraw.request', 'viewer')).toBe(
      'This page needs one of the roles admin or finance; you are signed in as viewer.',
    );
  });
});
