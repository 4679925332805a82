// pg's own row parser and value preparation, which pg-cursor also uses (pg ships no types for them).

declare module 'pg/lib/result.js' {
  import type { CustomTypesConfig, FieldDef } from 'pg';

  export default class Result {
    constructor(rowMode: 'array' | undefined, types: CustomTypesConfig | undefined);
    addFields(fields: FieldDef[]): void;
    parseRow(values: unknown[]): Record<string, unknown>;
  }
}

declare module 'pg/lib/utils.js' {
  export function prepareValue(value: unknown): unknown;
}
