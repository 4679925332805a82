import { z } from 'zod';
import { defineCall } from '../call.ts';

// A collection's definition as code: export it, plan a document against the collection, apply it.
// The document's own schema (apiVersion, connections, assets, roles) is `definition-document.ts`; this file holds
// the calls and the plan's answer, which the portal's Import screen and the `datalab` command line read.

/** The largest definition document a plan or apply accepts, in bytes of its text. */
export const DEFINITION_MAX_BYTES = 5 * 1024 * 1024;

/** What a definition document describes; a change names one of these and the thing's name. */
export const definitionKinds = ['collection', 'sqlConnection', 'webApiConnection', 'dataAsset', 'dataRole'] as const;
export const definitionKind = z.enum(definitionKinds);
export type DefinitionKind = z.infer<typeof definitionKind>;

export const definitionAction = z.enum(['create', 'update', 'delete']);
export type DefinitionAction = z.infer<typeof definitionAction>;

/** One field that differs: its path inside the thing (`parameters.country.allowedValues`), before and after. */
export const definitionDifference = z.object({
  path: z.string(),
  before: z.unknown().optional(),
  after: z.unknown().optional(),
});
export type DefinitionDifference = z.infer<typeof definitionDifference>;

export const definitionChange = z.object({
  kind: definitionKind,
  name: z.string(),
  action: definitionAction,
  /** For an update, the fields that differ; for a create or delete, empty. */
  differences: z.array(definitionDifference),
});
export type DefinitionChange = z.infer<typeof definitionChange>;

/**
 * What plan and apply take: the document as YAML or JSON text (or as an object), and the values of the secrets it
 * references by name. A secret the collection already holds under that reference need not be sent again.
 */
export const definitionRequest = z.object({
  document: z.union([z.string().max(DEFINITION_MAX_BYTES), z.record(z.string(), z.unknown())]),
  secrets: z.record(z.string().max(200), z.string().max(10_000)).default({}),
});
export type DefinitionRequest = z.input<typeof definitionRequest>;

export const definitionPlan = z.object({
  /** In the order they would be made; empty when the collection already matches the document. */
  changes: z.array(definitionChange),
  /** Secret references the document uses that are neither supplied nor held; apply refuses while any remain. */
  missingSecrets: z.array(z.string()),
});
export type DefinitionPlan = z.infer<typeof definitionPlan>;

export const definitionApplied = definitionPlan.extend({ applied: z.literal(true) });
export type DefinitionApplied = z.infer<typeof definitionApplied>;

const collectionUid = z.object({ uid: z.string().trim().min(1) });

export const getCollectionDefinition = defineCall({
  method: 'GET',
  path: '/api/DataSourceCollection/:uid/Definition',
  tag: 'DataSourceCollection',
  summary:
    "The collection's definition as a document (YAML on Accept: application/yaml, JSON otherwise); secrets are named " +
    'references, never values (Owner)',
  params: collectionUid,
  response: z.record(z.string(), z.unknown()),
});

export const planCollectionDefinition = defineCall({
  method: 'POST',
  path: '/api/DataSourceCollection/:uid/Definition/Plan',
  tag: 'DataSourceCollection',
  summary: 'The changes a definition document would make to the collection, touching nothing (Owner)',
  params: collectionUid,
  body: definitionRequest,
  response: definitionPlan,
});

export const applyCollectionDefinition = defineCall({
  method: 'POST',
  path: '/api/DataSourceCollection/:uid/Definition/Apply',
  tag: 'DataSourceCollection',
  summary:
    'Make the changes of a definition document in one transaction, deleting what it leaves out only with prune: true ' +
    '(Owner)',
  params: collectionUid,
  body: definitionRequest,
  response: definitionApplied,
});
