// Alerts outside the console: a person points their chat webhook at a receiver, an internal address is refused,
// a test alert reaches the receiver with a link back to the console, and the page shows its delivery.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { contextAs, expect, expectAccessible, test } from './fixtures';

interface ChatReceiver {
  url: string;
  posts: Array<{ text: string }>;
  close(): Promise<void>;
}

/** A Slack-compatible incoming webhook on this machine: it keeps every `{ text }` posted to it. */
async function startChatReceiver(): Promise<ChatReceiver> {
  const posts: Array<{ text: string }> = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      try {
        posts.push(JSON.parse(body) as { text: string });
        res.writeHead(200).end('ok');
      } catch {
        res.writeHead(400).end('invalid_payload');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/services/T0001/B0001/e2eSecretToken`,
    posts,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

test('a person sets a chat webhook, refuses an internal address, and receives a test alert with a working link', async ({
  browser,
}) => {
  const receiver = await startChatReceiver();
  const { page, context } = await contextAs(browser, 'viewer', '/account/alerts');
  try {
    await expect(page.getByRole('heading', { name: 'Alerts', level: 1 })).toBeVisible();
    await expectAccessible(page);

    const enabled = page.getByLabel('Post alerts to a chat webhook');
    const url = page.getByLabel('Webhook URL (Slack-compatible)');
    const save = page.getByRole('button', { name: 'Save alert settings' });

    // An address on a private network is refused on the server (the form is ready once it has hydrated).
    await expect(async () => {
      await enabled.check();
      await url.fill('http://10.0.0.1/services/hook');
      await save.click();
      await expect(page.getByText(/private or internal network/)).toBeVisible({ timeout: 2_000 });
    }).toPass();

    // The receiver on this machine (loopback is allowed in sandbox mode), with the events it should post.
    await url.fill(receiver.url);
    const postAbout = page.getByRole('group', { name: 'Post about' });
    await postAbout.getByLabel('Webhook endpoint failing').check();
    await postAbout.getByLabel('Gas balance low').check();
    await save.click();
    await expect(page.getByText('Alert settings saved')).toBeVisible();
    // The URL is write-only: the page shows its host and last characters, never the whole address.
    const port = new URL(receiver.url).port;
    await expect(page.getByText(`Saved: 127.0.0.1:${port} …oken`)).toBeVisible();
    await expect(url).toHaveValue('');
    expect(await page.content()).not.toContain('e2eSecretToken');

    // The choice holds after a reload.
    await page.reload();
    await expect(enabled).toBeChecked();
    await expect(
      page.getByRole('group', { name: 'Post about' }).getByLabel('Webhook endpoint failing'),
    ).toBeChecked();

    await page.getByRole('button', { name: 'Send a test alert' }).click();
    await expect(page.getByText('Test alert queued')).toBeVisible();
    await expect
      .poll(() => receiver.posts.filter((p) => p.text.includes('Test alert')).length)
      .toBeGreaterThan(0);
    const text = receiver.posts.find((p) => p.text.includes('Test alert'))!.text;
    expect(text).toContain('viewer@example.com');
    expect(text).not.toContain('e2eSecretToken');

    // The message's link opens the console's page.
    const link = /Open in the console: (\S+)/.exec(text)?.[1] ?? '';
    expect(new URL(link).pathname).toBe('/account/alerts');
    await page.goto(link);
    const recent = page.getByRole('table', { name: 'Recent alerts' });
    const row = recent.getByRole('row').filter({ hasText: 'Test alert from the custody console' }).first();
    await expect(async () => {
      await page.reload();
      await expect(row).toContainText('Delivered', { timeout: 2_000 });
    }).toPass();
    await expectAccessible(page);

    // On a phone the page fits the screen and stays accessible.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expect(row).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectAccessible(page);
  } finally {
    await context.close();
    await receiver.close();
  }
});
