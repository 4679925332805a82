import type { DefinitionApplied, DefinitionPlan } from '@datalab/contract/api/definitions';
import type { ConnectorRegistry } from '@datalab/engine';
import type { DefinitionDocument } from '@datalab/contract/api/definition-document';
import type { Collection } from '../../db/schema.ts';
import { AppError, validation } from '../../lib/errors.ts';
import { changeAccess, type Actor } from '../access/change-access.service.ts';
import type { DataRole } from '@datalab/contract/api/data-roles';
import { assertNameFree } from '../collections/service.ts';
import type { SqlRuntime } from '../connections/runtime.service.ts';
import { removeLeftovers, type DeletionStores } from '../dependents/leftovers.service.ts';
import { mayChangeAllowedHosts } from '../web-api/service.ts';
import { writeChanges } from './apply.service.ts';
import { checkAccounts, checkDocument } from './check.service.ts';
import { readDocument } from './document.ts';
import { documentOf, documentYaml } from './export.service.ts';
import { planOf, type Plan } from './plan.service.ts';
import { loadCollectionState, type CollectionState } from './repository.ts';

// A collection's definition as code: export, plan, apply (docs/definitions.md). Routes authorize (Owner); here:
// read and check the document whole, compare it with the state, and write the changes in one transaction that also
// bumps the access version (roles may change) and writes one audit record. Apply checks again inside the
// transaction against the state it locked, so two applies at once cannot both write from a stale plan.

export interface DefinitionServices {
  actor: Actor;
  runtime: SqlRuntime;
  connectors: ConnectorRegistry;
  stores: DeletionStores;
  role: DataRole | null;
}

export async function exportDefinition(actor: Pick<Actor, 'db'>, collection: Collection, yaml: boolean) {
  const document = documentOf(await loadCollectionState(actor.db, collection));
  return yaml ? documentYaml(document) : document;
}

type Body = { document: string | Record<string, unknown>; secrets: Record<string, string> };

/** Rules that depend on who applies: allowed hosts only by an administrator; roles never by a Data Lab token. */
async function checkCaller(s: DefinitionServices, document: DefinitionDocument, state: CollectionState, plan: Plan) {
  const allowedHostsChange = plan.changes.some(
    (c) =>
      c.kind === 'webApiConnection' &&
      (c.action === 'create'
        ? (document.webApiConnections.find((w) => w.name === c.name)?.allowedHosts.length ?? 0) > 0
        : c.differences.some((d) => d.path.startsWith('allowedHosts'))),
  );
  if (allowedHostsChange && !(await mayChangeAllowedHosts(s.actor, s.role))) {
    throw new AppError({
      status: 403,
      code: 'forbidden',
      title: 'Only an administrator can change the allowed internal hosts',
      errors: { webApiConnections: ['Only an administrator can change the allowed internal hosts'] },
    });
  }
  if (s.actor.user.token && plan.changes.some((c) => c.kind === 'dataRole')) {
    throw new AppError({
      status: 403,
      code: 'forbidden',
      title: 'A Data Lab token cannot change data roles; apply this document signed in',
    });
  }
  if (plan.changes.some((c) => c.kind === 'collection'))
    await assertNameFree(s.actor, s.actor.db, document.collection.name, state.collection.id);
}

async function prepare(s: Pick<DefinitionServices, 'actor' | 'runtime'>, collection: Collection, body: Body) {
  const document = readDocument(body.document);
  const state = await loadCollectionState(s.actor.db, collection);
  await checkDocument(s.actor, s.runtime, document, state);
  return { document, state };
}

export async function planDefinition(
  s: Pick<DefinitionServices, 'actor' | 'runtime'>,
  collection: Collection,
  body: Body,
): Promise<DefinitionPlan> {
  const { document, state } = await prepare(s, collection, body);
  return planOf({ document, state, secrets: body.secrets, box: s.runtime.box });
}

export async function applyDefinition(
  s: DefinitionServices,
  collection: Collection,
  body: Body,
): Promise<DefinitionApplied> {
  const { document, state } = await prepare(s, collection, body);
  const first = planOf({ document, state, secrets: body.secrets, box: s.runtime.box });
  if (first.missingSecrets.length > 0) {
    throw validation({
      secrets: first.missingSecrets.map((ref) => `No value for the secret ${ref}: send it in secrets`),
    });
  }
  await checkCaller(s, document, state, first);
  if (first.changes.length === 0) return { ...first, applied: true };
  await checkAccounts(s.runtime, { document, state, secrets: body.secrets, box: s.runtime.box }, first.changes);
  const { plan, written } = await changeAccess(s.actor, async (trx) => {
    const locked = await loadCollectionState(trx, collection);
    const input = { document, state: locked, secrets: body.secrets, box: s.runtime.box };
    const plan = planOf(input);
    const written = await writeChanges(trx, s.actor, s.runtime, input, plan.changes);
    await s.actor.audit(
      {
        action: 'collection.definition.apply',
        target: { type: 'collection', id: collection.uid, name: collection.name },
        after: {
          prune: document.prune,
          changes: plan.changes.map((c) => ({ kind: c.kind, name: c.name, action: c.action })),
        },
      },
      trx,
    );
    return { plan, written };
  });
  for (const id of new Set(written.evict)) await s.connectors.evict(String(id));
  if (written.deletedAssets.length > 0)
    await removeLeftovers(s.stores, { jobs: written.jobs, dataSourceIds: written.deletedAssets });
  return { ...plan, applied: true };
}
