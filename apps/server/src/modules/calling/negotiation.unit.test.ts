import { describe, expect, it } from 'vitest';
import { contentDisposition, negotiateFormat, slug } from './negotiation.ts';

describe('calling layer negotiation', () => {
  it('takes format= first, then the best acceptable type of Accept, then JSON', () => {
    expect(negotiateFormat('CSV', 'application/json')).toBe('csv');
    expect(negotiateFormat(undefined, 'text/csv;q=0.5, application/x-ndjson;q=0.8')).toBe('ndjson');
    expect(negotiateFormat(undefined, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')).toBe(
      'xlsx',
    );
    expect(negotiateFormat(undefined, 'text/csv;q=0, text/html')).toBe('json');
    expect(negotiateFormat(undefined, undefined)).toBe('json');
    expect(() => negotiateFormat('parquet', undefined)).toThrow(
      expect.objectContaining({ errors: { format: ['Unsupported type parquet'] } }),
    );
  });

  it('names files from a slug and the date, with nothing a header or a path could misread', () => {
    const at = new Date('2026-11-23T10:00:00Z');
    expect(contentDisposition('Ventes été "2026" / Nord', 'csv', at)).toBe(
      `attachment; filename="ventes-ete-2026-nord-2026-11-23.csv"; filename*=UTF-8''ventes-%C3%A9t%C3%A9-2026-nord-2026-11-23.csv`,
    );
    expect(contentDisposition('../../etc/passwd\r\nX-Evil: 1', 'json', at)).toBe(
      `inline; filename="etc-passwd-x-evil-1-2026-11-23.json"; filename*=UTF-8''etc-passwd-x-evil-1-2026-11-23.json`,
    );
    expect(contentDisposition('東京', 'xlsx', at)).toBe(
      `attachment; filename="data-2026-11-23.xlsx"; filename*=UTF-8''${encodeURIComponent('東京')}-2026-11-23.xlsx`,
    );
    expect(slug('x'.repeat(200), true)).toHaveLength(80);
  });
});
