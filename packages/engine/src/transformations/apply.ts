import { EngineError } from '../errors.ts';
import { isInMemory, rowsInMemory, type Column, type Row, type RowStream } from '../types.ts';
import { type Stage, compileRule } from './compile.ts';
import { type Transformation, type TransformationInput, transformationsSchema } from './schema.ts';

// Applies transformations in order to a (columns, rows) stream — the same code for every source. Rules stream
// row by row, except sort, which must hold the rows it orders: it refuses more than `sortLimit` rows (ROW_CAP).

export interface ApplyOptions {
  /** The most rows a sort rule may hold in memory; the data source's row cap. */
  sortLimit: number;
}

/** Parses the rule shapes (zod) into an errors map keyed by path, e.g. "0.rules.1.column". */
export function parseTransformations(input: unknown): Transformation[] {
  const result = transformationsSchema.safeParse(input);
  if (result.success) return result.data;
  const errors: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const key = issue.path.join('.') || 'transformations';
    (errors[key] ??= []).push(issue.message);
  }
  throw new EngineError('INVALID_TRANSFORMATION', undefined, { errors });
}

/** Compiles every rule against the columns it will see; throws INVALID_TRANSFORMATION naming the field. */
export function compileTransformations(
  transformations: readonly Transformation[],
  columns: Column[],
): { stages: Stage[]; columns: Column[] } {
  const stages: Stage[] = [];
  let current = columns;
  transformations.forEach((transformation, t) => {
    transformation.rules.forEach((rule, r) => {
      const stage = compileRule(rule, current, `${t}.rules.${r}`);
      stages.push(stage);
      current = stage.columns;
    });
  });
  return { stages, columns: current };
}

async function* applyStage(stage: Stage, rows: AsyncIterable<Row>, options: ApplyOptions): AsyncGenerator<Row> {
  switch (stage.kind) {
    case 'map':
      for await (const row of rows) yield stage.map(row);
      return;
    case 'filter':
      for await (const row of rows) if (stage.test(row)) yield row;
      return;
    case 'limit': {
      if (stage.count === 0) return;
      let n = 0;
      for await (const row of rows) {
        yield row;
        if ((n += 1) >= stage.count) return; // returning closes the source: the cursor stops early
      }
      return;
    }
    case 'sort': {
      const buffer: Row[] = [];
      for await (const row of rows) {
        if (buffer.length >= options.sortLimit) {
          throw new EngineError('ROW_CAP', `A sort rule can order at most ${options.sortLimit} rows`);
        }
        buffer.push(row);
      }
      buffer.sort(stage.compare);
      yield* buffer;
    }
  }
}

/** The stages over rows already in memory, at once: the same rows, in the same order, as applyStage would give. */
function applyStagesInMemory(stages: readonly Stage[], all: readonly Row[], options: ApplyOptions): readonly Row[] {
  let rows = all;
  for (const stage of stages) {
    switch (stage.kind) {
      case 'map':
        rows = rows.map((row) => stage.map(row));
        break;
      case 'filter':
        rows = rows.filter((row) => stage.test(row));
        break;
      case 'limit':
        rows = rows.slice(0, stage.count);
        break;
      case 'sort':
        if (rows.length > options.sortLimit) {
          throw new EngineError('ROW_CAP', `A sort rule can order at most ${options.sortLimit} rows`);
        }
        rows = rows.toSorted(stage.compare);
    }
  }
  return rows;
}

/**
 * The transformed stream. Rows that stream are transformed as they are read; rows already in memory are transformed
 * at once (a rule's error is then thrown here) and stay in memory.
 */
export function applyTransformations(
  source: RowStream,
  transformations: readonly (Transformation | TransformationInput)[],
  options: ApplyOptions,
): RowStream {
  const parsed = parseTransformations(transformations);
  const { stages, columns } = compileTransformations(parsed, source.columns);
  if (isInMemory(source.rows)) {
    // The stages' array is theirs (or the source's own, with no stage): releasing it releases the source too.
    const applied = applyStagesInMemory(stages, source.rows.all, options) as Row[];
    return { columns, rows: rowsInMemory(applied, source.rows), close: source.close };
  }
  let rows: AsyncIterable<Row> = source.rows;
  for (const stage of stages) rows = applyStage(stage, rows, options);
  return { columns, rows, close: source.close };
}
