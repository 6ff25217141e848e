// Serves a sandbox over real HTTP on 127.0.0.1 for tests, as app/sandbox/[...path]/route.ts does under Next.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Sandbox } from '@/lib/sandbox';

export interface ServedSandbox {
  /** Base URL of the API, e.g. http://127.0.0.1:PORT/sandbox (the client's baseUrl). */
  url: string;
  /** Origin only, e.g. http://127.0.0.1:PORT. */
  origin: string;
  close(): Promise<void>;
}

export async function serveSandbox(sandbox: Pick<Sandbox, 'handle'>): Promise<ServedSandbox> {
  const server = createServer((req, res) => {
    void answer(sandbox, req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/sandbox`,
    origin,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function answer(sandbox: Pick<Sandbox, 'handle'>, req: IncomingMessage, res: ServerResponse) {
  // Aborts when the client goes away before the answer is sent, as a web server's request signal does.
  const gone = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) gone.abort();
  });
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined) continue;
      for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
    }
    const method = req.method ?? 'GET';
    const request = new Request(new URL(req.url ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`), {
      method,
      headers,
      body: method === 'GET' || method === 'HEAD' || body.length === 0 ? undefined : new Uint8Array(body),
      signal: gone.signal,
    });
    const response = await sandbox.handle(request);
    if (res.destroyed) return;
    res.statusCode = response.status;
    response.headers.forEach((value, name) => {
      res.appendHeader(name, value);
    });
    if (response.body) {
      const reader = response.body.getReader();
      while (true) {
        const { done, value } = await reader.read();
        if (done) break;
        if (res.destroyed) {
          await reader.cancel();
          return;
        }
        res.write(value);
      }
    }
    res.end();
  } catch {
    if (!res.headersSent && !res.destroyed) {
      res.statusCode = 500;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ statusCode: 500, message: 'Test server failed to relay the request' }));
    } else {
      res.destroy();
    }
  }
}
