// Why this file exists: issue 26 item 6. In-process handlers answer plain requests by the lean path
// (server/pipeline/lean-path.ts) and leave the rest to the Express app; a test file that sends only
// plain requests must never load Express or express-openapi-validator (their load and first compile were
// most of a fresh process's set-up). Checked in a fresh Node process from the built package, by what it
// loaded: byte-equality.test.ts holds the answers themselves to the HTTP server's.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ROOT } from '../support/servers';

interface ChildReport {
  statuses: number[];
  /** Packages under node_modules the process had loaded after each phase. */
  loadedAfterPlain: string[];
  loadedAfterPrefer: string[];
}

/** Runs `requests` through createHandlers in a fresh process; reports statuses and what was loaded. */
function inFreshProcess(): ChildReport {
  const script = `
    const loaded = () => [...new Set(Object.keys(require.cache).flatMap((file) => {
      const match = /node_modules[\\\\/]((?:@[^\\\\/]+[\\\\/])?[^\\\\/]+)/.exec(file);
      return match ? [match[1].replace(/\\\\/g, '/')] : [];
    }))].sort();
    (async () => {
      const { setupServer } = require('msw/node');
      const { createHandlers } = require(${JSON.stringify(path.join(ROOT, 'dist/server/msw.js'))});
      const server = setupServer(...createHandlers({ baseUrl: 'http://api.test', clients: 40 }));
      server.listen({ onUnhandledRequest: 'error' });
      const key = { 'X-Api-Key': 'dev-key' };
      const get = async (url, headers = key) => (await fetch('http://api.test' + url, { headers })).status;
      const statuses = [];
      const first = await fetch('http://api.test/api/v1/Client/Simple?pageSize=3', { headers: key });
      const id = (await first.json()).Results[0].IdClient;
      statuses.push(first.status);
      statuses.push(await get('/api/v1/Client/Extended?active=true&page=2&filter=a'));
      statuses.push(await get('/api/v1/Client/Detail/' + id));
      statuses.push(await get('/api/v1/Client/Detail/00000000-0000-4000-8000-000000000000'));
      statuses.push(await get('/api/v1/Diagnostics/Ping', {}));
      const loadedAfterPlain = loaded();
      statuses.push(await get('/api/v1/Client/Simple', { ...key, Prefer: 'code=500' }));
      statuses.push(await get('/api/v1/Client/Simple?pageSize=101'));
      const loadedAfterPrefer = loaded();
      server.close();
      process.stdout.write(JSON.stringify({ statuses, loadedAfterPlain, loadedAfterPrefer }));
    })().catch((error) => { console.error(error); process.exit(1); });
  `;
  const result = spawnSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  if (result.status !== 0) throw new Error(result.stderr);
  return JSON.parse(result.stdout) as ChildReport;
}

describe('in-process handlers: the lean path answers plain requests without Express', () => {
  const report = inFreshProcess();

  test('a list page, a filtered page, a Detail, an unknown Detail and Ping → answered, and neither Express nor the validator loaded', () => {
    expect(report.statuses.slice(0, 5)).toEqual([200, 200, 200, 404, 200]);
    expect(report.loadedAfterPlain).not.toContain('express');
    expect(report.loadedAfterPlain).not.toContain('express-openapi-validator');
  });

  test('then a Prefer request and an invalid pageSize → answered by the Express app, which is loaded for them', () => {
    expect(report.statuses.slice(5)).toEqual([500, 400]);
    expect(report.loadedAfterPrefer).toEqual(expect.arrayContaining(['express', 'express-openapi-validator']));
  });
});
