import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { adminToken, startDataLab } from './lib/datalab.ts';
import { intOption } from './lib/options.ts';
import { removeScratchDir, scratchDir, stop } from './lib/processes.ts';
import { max, median, print, printTable, round } from './lib/stats.ts';
import type { Bench, BenchResult } from './lib/types.ts';

// Export and plan of a collection of `--assets` (500) data assets, each with three parameters (one taking its
// allowed values from another asset, one a fixed list), a transformation of two rules and two client tools, on a
// real server (embedded store, LOG_LEVEL=info), 1.5 s apart (the server sheds calls for a second after a busy event loop). The collection is built by applying one generated document (which
// is timed too, for the record), then, one caller, `--runs` (7) times each after a warm-up: the export as YAML,
// the export as JSON, and a plan of the exported YAML and of the exported JSON (each answers no changes). Timed to the last byte.
// Verdict: the worst run of export (YAML) and of plan each under 2 s.

const TARGET_MS = 2000;

function generatedDocument(collectionName: string, assets: number) {
  const dataAssets = [
    {
      name: 'Countries',
      kind: 'sql',
      connection: 'Shop',
      sql: 'select code, name from countries order by code',
    },
  ];
  for (let i = 1; i < assets; i += 1) {
    dataAssets.push({
      name: `Orders ${String(i).padStart(4, '0')}`,
      kind: 'sql',
      connection: 'Shop',
      description: `Orders of one country, view ${i}`,
      sql: `select id, email, country, total from orders_${i % 7} where country in (:country) and total >= :min_total and status = :status order by id`,
      rowCap: 1000 + i,
      cacheTtlSeconds: i % 2 === 0 ? 300 : 0,
      parameters: [
        {
          name: 'country',
          type: 'string',
          list: true,
          required: true,
          allowedValues: { kind: 'dataSource', dataAsset: 'Countries', valueColumn: 'code', labelColumn: 'name' },
        },
        { name: 'min_total', type: 'decimal', default: 0, min: 0 },
        {
          name: 'status',
          type: 'string',
          allowedValues: { kind: 'fixed', options: [{ value: 'open' }, { value: 'paid', label: 'Paid' }] },
        },
      ],
      transformations: [
        {
          name: 'Privacy',
          rules: [
            { type: 'mask', column: 'email', mode: 'full' },
            { type: 'rename', from: 'total', to: 'amount' },
          ],
        },
      ],
      clientTools: [{ tool: 'python', settings: { pandas: true } }, { tool: 'curl' }],
    } as never);
  }
  return {
    apiVersion: 'datalab.io/v1',
    kind: 'CollectionDefinition',
    collection: { name: collectionName, description: 'Generated for the definitions bench' },
    sqlConnections: [{ name: 'Shop', driver: 'sqlite', database: 'shop.sqlite' }],
    dataAssets,
  };
}

/**
 * One request timed to its last byte, after a pause: the server sheds load (503) for a second after its event loop was
 * busy, which a previous export of this size can make it, and each run should measure one call alone.
 */
async function timed(request: () => Promise<Response>): Promise<{ ms: number; bytes: number; status: number }> {
  for (let attempt = 0; ; attempt += 1) {
    await sleep(1500);
    const started = performance.now();
    const response = await request();
    const body = await response.arrayBuffer();
    if (response.status !== 503 || attempt >= 3)
      return { ms: performance.now() - started, bytes: body.byteLength, status: response.status };
  }
}

export const definitions: Bench = {
  name: 'definitions',
  async run(options): Promise<BenchResult> {
    const assets = intOption(options, 'assets', 500, 5000);
    const runs = intOption(options, 'runs', 7, 100);
    const dataDir = scratchDir('definitions');
    const server = await startDataLab({ dataDir, logLevel: 'info', stdout: join(dataDir, 'server.log') });
    const notes: string[] = [];
    try {
      const token = await adminToken(server);
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const name = `Definitions bench ${Date.now()}`;
      const created = await fetch(`${server.baseUrl}/api/DataSourceCollection`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name }),
      });
      if (created.status !== 201) throw new Error(`create collection: ${created.status} ${await created.text()}`);
      const { uid } = (await created.json()) as { uid: string };
      const url = `${server.baseUrl}/api/DataSourceCollection/${uid}/Definition`;
      const document = JSON.stringify({ document: generatedDocument(name, assets), secrets: {} });
      const apply = await timed(() => fetch(`${url}/Apply`, { method: 'POST', headers, body: document }));
      if (apply.status !== 200) throw new Error(`apply: ${apply.status}`);
      print(`apply of ${assets} assets (create): ${round(apply.ms)} ms`);

      await sleep(1500);
      const yamlText = await (await fetch(url, { headers: { ...headers, accept: 'application/yaml' } })).text();
      const planBody = JSON.stringify({ document: yamlText, secrets: {} });
      const jsonText = await (await fetch(url, { headers })).text();
      const planJsonBody = JSON.stringify({ document: jsonText, secrets: {} });
      const cases = {
        'export (YAML)': () => fetch(url, { headers: { ...headers, accept: 'application/yaml' } }),
        'export (JSON)': () => fetch(url, { headers }),
        'plan (of the export)': () => fetch(`${url}/Plan`, { method: 'POST', headers, body: planBody }),
        'plan (of the JSON export)': () => fetch(`${url}/Plan`, { method: 'POST', headers, body: planJsonBody }),
      } as const;
      const figures: Record<string, number[]> = {};
      const rows: (string | number)[][] = [];
      for (const [label, request] of Object.entries(cases)) {
        const warm = await timed(request);
        if (warm.status !== 200) throw new Error(`${label}: ${warm.status}`);
        const times: number[] = [];
        let bytes = 0;
        for (let i = 0; i < runs; i += 1) {
          const run = await timed(request);
          if (run.status !== 200) throw new Error(`${label}: ${run.status}`);
          times.push(run.ms);
          bytes = run.bytes;
        }
        figures[label] = times;
        rows.push([label, round(median(times)), round(max(times)), round(bytes / 1024)]);
      }
      printTable(`${assets} assets, ${runs} runs each (one caller)`, ['call', 'median ms', 'max ms', 'reply kB'], rows);
      await sleep(1500);
      const plan = (await (await cases['plan (of the export)']()).json()) as { changes: unknown[] };
      if (plan.changes.length !== 0) notes.push(`the plan of the export listed ${plan.changes.length} changes`);
      const worst = (label: keyof typeof cases) => max(figures[label] ?? [Infinity]);
      notes.push(`apply of ${assets} new assets in one transaction: ${round(apply.ms)} ms`);
      return {
        name: 'definitions',
        verdicts: [
          {
            target: `export of ${assets} assets (YAML) < 2 s`,
            measured: `worst ${round(worst('export (YAML)'))} ms (median ${round(median(figures['export (YAML)'] ?? []))} ms)`,
            pass: worst('export (YAML)') < TARGET_MS,
          },
          {
            target: `plan of ${assets} assets < 2 s`,
            measured: `worst ${round(worst('plan (of the export)'))} ms (median ${round(median(figures['plan (of the export)'] ?? []))} ms)`,
            pass: worst('plan (of the export)') < TARGET_MS && plan.changes.length === 0,
          },
        ],
        notes,
        data: { assets, runs, applyMs: apply.ms, figures },
      };
    } finally {
      await stop(server.child);
      removeScratchDir(dataDir);
    }
  },
};
