// The one rule Biome's restricted imports cannot see: code that runs in the browser never reaches the
// server's modules. Starts at every 'use client' file and follows its value imports (type-only imports are
// erased) through the project; fails when one reaches lib/server, lib/db or lib/sandbox.
// `node scripts/check-layers.mjs [root]`; exits 1 with each offending chain.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(process.argv[2] ?? '.');
const FORBIDDEN = ['lib/server/', 'lib/db/', 'lib/sandbox/'];
const SKIP = new Set(['node_modules', '.git', '.data']);
const EXTENSIONS = ['.ts', '.tsx', '/index.ts', '/index.tsx'];

function* sources(dir) {
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name) || name.startsWith('.next')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sources(path);
    else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) yield path;
  }
}

function resolveImport(from, specifier) {
  let base;
  if (specifier.startsWith('@/')) base = join(root, specifier.slice(2));
  else if (specifier.startsWith('.')) base = resolve(dirname(from), specifier);
  else return null;
  if (existsSync(base) && statSync(base).isFile()) return base;
  for (const ext of EXTENSIONS) if (existsSync(base + ext)) return base + ext;
  return null;
}

// Value imports and re-exports; `import type` / `export type` are erased at build.
const IMPORT = /^\s*(?:import|export)\s+(?!type\s)(?:[^'"]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;

function importsOf(file) {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(IMPORT)].map((m) => resolveImport(file, m[1])).filter(Boolean);
}

const isClient = (file) => /^\s*(['"])use client\1/.test(readFileSync(file, 'utf8'));
const forbidden = (file) => FORBIDDEN.some((prefix) => relative(root, file).startsWith(prefix));

const failures = [];
for (const entry of ['app', 'components', 'lib'].flatMap((d) => [...sources(join(root, d))])) {
  if (!isClient(entry)) continue;
  const seen = new Map([[entry, null]]);
  const queue = [entry];
  while (queue.length) {
    const file = queue.shift();
    for (const next of importsOf(file)) {
      if (seen.has(next)) continue;
      seen.set(next, file);
      if (forbidden(next)) {
        const chain = [next];
        for (let at = file; at; at = seen.get(at)) chain.unshift(at);
        failures.push(chain.map((f) => relative(root, f)).join(' -> '));
        continue;
      }
      // A 'use server' module is called by reference from the browser: its own imports stay on the server.
      if (!/^\s*(['"])use server\1/.test(readFileSync(next, 'utf8'))) queue.push(next);
    }
  }
}

if (failures.length) {
  console.error('Client code reaches server-only modules:');
  for (const f of failures) console.error(`  ${f}`);
  process.exit(1);
}
console.log('layers: no client module reaches lib/server, lib/db or lib/sandbox');
