import { describe, expect, it } from 'vitest';
import { clampPage, pageCount } from './clamp-page.ts';

describe('clampPage', () => {
  it('keeps a page inside 1…total', () => {
    expect(clampPage(3, 5)).toBe(3);
    expect(clampPage(0, 5)).toBe(1);
    expect(clampPage(-4, 5)).toBe(1);
    expect(clampPage(9, 5)).toBe(5);
    expect(clampPage(Number.POSITIVE_INFINITY, 5)).toBe(5);
  });

  it('treats odd input sensibly', () => {
    expect(clampPage(Number.NaN, 5)).toBe(1);
    expect(clampPage(2.7, 5)).toBe(2);
    expect(clampPage(3, 0)).toBe(1);
    expect(pageCount(0)).toBe(1);
    expect(pageCount(4.2)).toBe(4);
    expect(pageCount(Number.NaN)).toBe(1);
  });
});
