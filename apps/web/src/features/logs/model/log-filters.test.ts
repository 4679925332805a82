import { describe, expect, it } from 'vitest';
import {
  fromLocalInput,
  logQuery,
  readLogFilters,
  requestRecordsPath,
  toLocalInput,
  withLogFilters,
} from './log-filters.ts';

describe('log filters in the URL', () => {
  it('reads known values and drops unknown ones', () => {
    const filters = readLogFilters(
      new URLSearchParams('level=warn&category=audit&from=2026-11-01T10:00:00Z&to=nonsense&userId=7&requestId=r-1'),
    );
    expect(filters).toEqual({
      level: 'warn',
      category: 'audit',
      from: '2026-11-01T10:00:00.000Z',
      to: undefined,
      userId: 7,
      userName: undefined,
      requestId: 'r-1',
    });
    expect(readLogFilters(new URLSearchParams('level=loud&userId=-2')).level).toBeUndefined();
    expect(readLogFilters(new URLSearchParams('userId=-2')).userId).toBeUndefined();
  });

  it('changes filters, starting again at page 1, and keeps the page when only the open record changes', () => {
    const params = new URLSearchParams('search=disk&page=3&level=info');
    expect(withLogFilters(params, { level: 'error' }).toString()).toBe('search=disk&level=error');
    expect(withLogFilters(params, { level: undefined }).toString()).toBe('search=disk');
    expect(withLogFilters(params, { record: 12 }).toString()).toBe('search=disk&page=3&level=info&record=12');
  });

  it('asks the server with the search and the page', () => {
    const filters = readLogFilters(new URLSearchParams('level=error&requestId=r-9'));
    expect(logQuery(filters, 'boom', 2, 50)).toMatchObject({
      page: 2,
      pageSize: 50,
      level: 'error',
      requestId: 'r-9',
      search: 'boom',
    });
    expect(logQuery(filters, '', 1, 50).search).toBeUndefined();
  });

  it("links to a request's records", () => {
    expect(requestRecordsPath('a b/c')).toBe('/management/logs?requestId=a+b%2Fc');
  });

  it('turns datetime-local text into an ISO bound and back; an upper bound takes the whole minute', () => {
    const iso = fromLocalInput('2026-11-23T10:15');
    expect(iso).toBeDefined();
    expect(toLocalInput(iso)).toBe('2026-11-23T10:15');
    const end = fromLocalInput('2026-11-23T10:15', { endOfMinute: true });
    expect(new Date(end ?? '').getTime() - new Date(iso ?? '').getTime()).toBe(59_999);
    expect(toLocalInput(end)).toBe('2026-11-23T10:15');
    expect(fromLocalInput('')).toBeUndefined();
  });
});
