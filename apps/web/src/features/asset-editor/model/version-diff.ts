import { diffLines } from 'diff';
import type { AssetDefinition } from '@datalab/contract/api/asset-versions';

// What the History tab compares between two versions: the SQL (or the Web API request), the parameters, the
// transformations and the rest of the settings, each as readable text, and a side-by-side view of two texts'
// line diff (jsdiff's diffLines), where a removed run beside an added one pairs up line by line.

export interface VersionSection {
  key: 'source' | 'parameters' | 'transformations' | 'settings';
  title: string;
  text: string;
}

const json = (value: unknown) => JSON.stringify(value, null, 2);

function requestText(request: NonNullable<AssetDefinition['request']>): string {
  const lines = [`${request.method} ${request.path}`];
  for (const [name, value] of Object.entries(request.query)) lines.push(`query ${name} = ${value}`);
  for (const [name, value] of Object.entries(request.headers)) lines.push(`header ${name}: ${value}`);
  if (request.body !== undefined) lines.push(`body ${json(request.body)}`);
  lines.push(`rows at: ${request.rowsPath || '(the reply itself)'}`);
  lines.push(`paging: ${json(request.paging)}`);
  return lines.join('\n');
}

function settingsText(d: AssetDefinition): string {
  return [
    `name: ${d.name}`,
    `description: ${d.description}`,
    `connection: ${d.connection ? d.connection.name : '(none)'}`,
    ...(d.kind === 'webapi' ? [`credential: ${d.credential ? d.credential.name : '(none)'}`] : []),
    `cache: ${d.cacheTtlSeconds} s`,
    `row cap: ${d.rowCap}`,
    `timeout: ${d.timeoutMs} ms`,
    `export rows: ${d.maxExportRows}`,
    `available to AI agents: ${d.mcpAvailable ? 'yes' : 'no'}`,
    ...d.clientTools.map((c) => `client tool ${c.tool}: ${JSON.stringify(c.settings)}`),
  ].join('\n');
}

/** The sections of one version's definition, in the order the tab shows them. */
export function versionSections(d: AssetDefinition): VersionSection[] {
  return [
    d.kind === 'webapi'
      ? { key: 'source', title: 'Request', text: d.request ? requestText(d.request) : '' }
      : { key: 'source', title: 'SQL', text: d.sql },
    { key: 'parameters', title: 'Parameters', text: d.parameters.map((p) => json(p)).join('\n') },
    {
      key: 'transformations',
      title: 'Transformations',
      text: d.transformations
        .map((t) => [`# ${t.name || '(unnamed)'}`, ...t.rules.map((r) => json(r))].join('\n'))
        .join('\n'),
    },
    { key: 'settings', title: 'Settings', text: settingsText(d) },
  ];
}

export interface DiffRow {
  kind: 'same' | 'changed' | 'removed' | 'added';
  left: { number: number; text: string } | null;
  right: { number: number; text: string } | null;
}

const linesOf = (value: string) => {
  const lines = value.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
};

/** Rows of a side-by-side line diff of `before` (left) and `after` (right). */
export function sideBySide(before: string, after: string): DiffRow[] {
  const rows: DiffRow[] = [];
  let left = 0;
  let right = 0;
  // Every text ends with a newline, so a last line without one still equals itself.
  const ended = (text: string) => (text === '' || text.endsWith('\n') ? text : `${text}\n`);
  const changes = diffLines(ended(before), ended(after));
  for (let i = 0; i < changes.length; i += 1) {
    const change = changes[i];
    if (!change) continue;
    const lines = linesOf(change.value);
    if (!change.added && !change.removed) {
      for (const text of lines)
        rows.push({ kind: 'same', left: { number: ++left, text }, right: { number: ++right, text } });
      continue;
    }
    const next = changes[i + 1];
    if (change.removed && next?.added) {
      const added = linesOf(next.value);
      for (let k = 0; k < Math.max(lines.length, added.length); k += 1) {
        const l = lines[k];
        const r = added[k];
        rows.push({
          kind: l !== undefined && r !== undefined ? 'changed' : l !== undefined ? 'removed' : 'added',
          left: l === undefined ? null : { number: ++left, text: l },
          right: r === undefined ? null : { number: ++right, text: r },
        });
      }
      i += 1;
    } else if (change.removed) {
      for (const text of lines) rows.push({ kind: 'removed', left: { number: ++left, text }, right: null });
    } else {
      for (const text of lines) rows.push({ kind: 'added', left: null, right: { number: ++right, text } });
    }
  }
  return rows;
}
