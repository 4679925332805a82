import type { FastifyInstance } from 'fastify';
import type { Fixture, Helpers, Persona } from './matrix-fixture.ts';

// The shape of one authorization-matrix row (matrix-table.ts spreads the rows of every file into one table).

export type Expected = Record<Persona, number>;
export type Values = Record<string, string | number>;

export interface Row {
  params?: (fx: Fixture, h: Helpers) => Promise<Values> | Values;
  query?: (fx: Fixture, h: Helpers) => Values;
  payload?: (fx: Fixture, h: Helpers) => Promise<object> | object;
  expected: Expected;
  /** Undoes what a successful cell created, so rows do not change each other's callers. */
  undo?: (body: string, app: FastifyInstance) => Promise<void>;
}
