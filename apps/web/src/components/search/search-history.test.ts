import { describe, expect, it } from 'vitest';
import { addToSearchHistory, clearSearchHistory, readSearchHistory } from './search-history.ts';

function stored(): unknown {
  return JSON.parse(window.localStorage.getItem('searchKeywords') ?? 'null');
}

describe('search history', () => {
  it("is kept in localStorage under 'searchKeywords', newest first", () => {
    addToSearchHistory('orders');
    addToSearchHistory('customers');
    expect(stored()).toEqual(['customers', 'orders']);
    expect(readSearchHistory()).toEqual(['customers', 'orders']);
  });

  it('keeps at most 10 searches, dropping the oldest', () => {
    for (let i = 1; i <= 12; i++) addToSearchHistory(`search ${i}`);
    const history = readSearchHistory();
    expect(history).toHaveLength(10);
    expect(history[0]).toBe('search 12');
    expect(history.at(-1)).toBe('search 3');
    expect(stored()).toEqual(history);
  });

  it('holds no duplicates: repeating a search moves it to the front', () => {
    addToSearchHistory('a');
    addToSearchHistory('b');
    addToSearchHistory(' a ');
    expect(readSearchHistory()).toEqual(['a', 'b']);
  });

  it('ignores blank searches and tolerates damaged storage', () => {
    addToSearchHistory('   ');
    expect(window.localStorage.getItem('searchKeywords')).toBeNull();
    window.localStorage.setItem('searchKeywords', '{not json');
    expect(readSearchHistory()).toEqual([]);
    window.localStorage.setItem('searchKeywords', JSON.stringify([1, 2]));
    expect(readSearchHistory()).toEqual([]);
    expect(addToSearchHistory('fresh')).toEqual(['fresh']);
  });

  it('honours a smaller limit and can be cleared', () => {
    for (const keyword of ['a', 'b', 'c', 'd']) addToSearchHistory(keyword, { limit: 3 });
    expect(readSearchHistory()).toEqual(['d', 'c', 'b']);
    clearSearchHistory();
    expect(readSearchHistory()).toEqual([]);
  });
});
