import type { Column, ColumnType } from '../types.ts';

// The shapes of scanned pages (json-scan.ts): a page's keys and column types, kept for the next pages. Each call of a
// data source reads pages of the same shape, whose names, columns and checks are then made once. Frozen: every call
// that reads such a page shares them (and the JSON writer keeps the reply's head bytes for them).

/** An array index as a key: objects list those first whatever their place, so such rows are not copied. */
const isIndexKey = (name: string) => /^(?:0|[1-9]\d*)$/.test(name) && Number(name) < 2 ** 32 - 1;

/** A page's keys and column types. */
export interface Shape {
  /** The first row's keys as its bytes, quotes included, one after the other. */
  keys: Buffer;
  /** Each key's length in `keys`. */
  lengths: readonly number[];
  columns: Column[];
  names: readonly string[];
}

/** Shapes seen lately (the most recent last); a page of another shape is checked and named afresh. */
const shapes: Shape[] = [];
const MAX_SHAPES = 32;

/** The shape these keys and types make, as kept by an earlier page; undefined when none was. */
export function knownShape(
  data: Buffer,
  keyStarts: readonly number[],
  keyEnds: readonly number[],
  types: readonly (ColumnType | undefined)[],
): Shape | undefined {
  for (let index = shapes.length - 1; index >= 0; index -= 1) {
    const shape = shapes[index]!;
    if (shape.lengths.length !== keyStarts.length) continue;
    let at = 0;
    let same = true;
    for (let key = 0; same && key < keyStarts.length; key += 1) {
      const start = keyStarts[key]!;
      const length = keyEnds[key]! - start;
      same =
        length === shape.lengths[key] &&
        (types[key] ?? 'string') === shape.columns[key]!.type &&
        data.compare(shape.keys, at, at + length, start, start + length) === 0;
      at += length;
    }
    if (same) return shape;
  }
  return undefined;
}

/**
 * The shape of a page whose keys and types no kept shape has: named, checked and kept. Undefined when its rows cannot
 * be copied as they are: a key twice (JSON.parse keeps the last), or an array index as a key (objects list those first).
 */
export function newShape(
  data: Buffer,
  keyStarts: readonly number[],
  keyEnds: readonly number[],
  types: readonly (ColumnType | undefined)[],
): Shape | undefined {
  const names = keyStarts.map((start, index) => data.toString('utf8', start + 1, keyEnds[index]! - 1));
  if (new Set(names).size !== names.length || names.some(isIndexKey)) return undefined;
  const columns = names.map((name, index) => Object.freeze({ name, type: types[index] ?? 'string' }));
  const shape: Shape = {
    keys: Buffer.concat(keyStarts.map((start, index) => data.subarray(start, keyEnds[index]))),
    lengths: keyStarts.map((start, index) => keyEnds[index]! - start),
    columns: Object.freeze(columns) as Column[],
    names: Object.freeze(names),
  };
  if (shapes.length >= MAX_SHAPES) shapes.shift();
  shapes.push(shape);
  return shape;
}
