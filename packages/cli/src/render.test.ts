import { describe, expect, it } from 'vitest';
import { failureMessage } from './client.ts';
import { formatValue, renderPlan } from './render.ts';

describe('renderPlan', () => {
  it('shows each change in order, an update with each field before → after, and a summary', () => {
    const text = renderPlan({
      missingSecrets: [],
      changes: [
        { kind: 'sqlConnection', name: 'Shop', action: 'create', differences: [] },
        {
          kind: 'dataAsset',
          name: 'Orders',
          action: 'update',
          differences: [
            { path: 'description', before: 'Old', after: 'New' },
            { path: 'parameters.country.allowedValues', before: ['DE'], after: ['DE', 'FR'] },
            { path: 'cache.ttlSeconds', after: 60 },
            { path: 'sql', before: 'select 1\nfrom a', after: 'select 2\nfrom a' },
          ],
        },
        { kind: 'dataRole', name: 'Analysts', action: 'delete', differences: [] },
      ],
    });
    expect(text).toBe(
      [
        'Changes:',
        '  + create SQL connection "Shop"',
        '  ~ update data asset "Orders"',
        '      description: "Old" → "New"',
        '      parameters.country.allowedValues: ["DE"] → ["DE","FR"]',
        '      cache.ttlSeconds: (none) → 60',
        '      sql:',
        '        - select 1',
        '        - from a',
        '        + select 2',
        '        + from a',
        '  - delete data role "Analysts"',
        '',
        'Plan: 1 to create, 1 to update, 1 to delete.',
        '',
      ].join('\n'),
    );
  });

  it('says when nothing changes, and what an apply did', () => {
    expect(renderPlan({ changes: [], missingSecrets: [] })).toBe('No changes: the collection matches the document.\n');
    const applied = renderPlan(
      { changes: [{ kind: 'collection', name: 'Sales', action: 'update', differences: [] }], missingSecrets: [] },
      { applied: true },
    );
    expect(applied).toContain('Changes made:\n  ~ update collection "Sales"');
    expect(applied).toContain('Applied: 0 created, 1 updated, 0 deleted.');
  });

  it('writes values on one line', () => {
    expect(formatValue(undefined)).toBe('(none)');
    expect(formatValue(null)).toBe('null');
    expect(formatValue('a "b"')).toBe('"a \\"b\\""');
    expect(formatValue({ a: 1 })).toBe('{"a":1}');
  });
});

describe('failureMessage', () => {
  it('lists a 400 field by field, with its path', () => {
    const body = JSON.stringify({
      title: 'One or more validation errors occurred.',
      status: 400,
      errors: { 'document.assets.2.parameters.0.dependsOn': ['Depends-on makes a cycle: a → b → a'] },
    });
    expect(failureMessage(400, body)).toBe(
      'The server refused the request (400): One or more validation errors occurred.\n' +
        '  document.assets.2.parameters.0.dependsOn: Depends-on makes a cycle: a → b → a',
    );
  });

  it("gives the server's words for 401 and 403", () => {
    const refused = JSON.stringify({ title: 'The token is invalid, revoked or expired', status: 401 });
    expect(failureMessage(401, refused)).toBe(
      'The server did not accept the token in DATALAB_TOKEN (401): The token is invalid, revoked or expired',
    );
    const forbidden = JSON.stringify({ title: 'Forbidden', status: 403, detail: 'Owner needed', requestId: 'r-1' });
    expect(failureMessage(403, forbidden)).toContain('Not allowed (403): Forbidden: Owner needed (request r-1)');
  });

  it('shows the start of a body that is not an error reply', () => {
    expect(failureMessage(502, '<html>Bad gateway</html>')).toBe('The server answered 502: <html>Bad gateway</html>');
  });
});
