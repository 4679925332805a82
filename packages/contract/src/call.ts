import type { z } from 'zod';

// One definition per /api call: the server routes from it, the web client calls through it,
// and the OpenAPI document is generated from it.

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface CallDefinition<
  Params extends z.ZodType | undefined = z.ZodType | undefined,
  Query extends z.ZodType | undefined = z.ZodType | undefined,
  Body extends z.ZodType | undefined = z.ZodType | undefined,
  Response extends z.ZodType = z.ZodType,
> {
  method: HttpMethod;
  /** Path as Fastify writes it: `/api/DataSource/GetByUid/:uid`. */
  path: string;
  tag: string;
  summary: string;
  params?: Params;
  query?: Query;
  body?: Body;
  response: Response;
  /** The success status; 200 unless said. */
  status?: 200 | 201 | 202 | 204;
}

export function defineCall<
  Params extends z.ZodType | undefined = undefined,
  Query extends z.ZodType | undefined = undefined,
  Body extends z.ZodType | undefined = undefined,
  Response extends z.ZodType = z.ZodType,
>(definition: CallDefinition<Params, Query, Body, Response>) {
  return definition;
}

/** Fills `:name` placeholders of a call's path. */
export function callPath(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/:([A-Za-z]\w*)/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Missing path parameter ${name} for ${path}`);
    return encodeURIComponent(String(value));
  });
}
