import { getAssetVersion, getAssetVersions, restoreAssetVersion } from '@datalab/contract/api/asset-versions';
import * as calls from '@datalab/contract/api/data-sources';
import {
  deleteSqlDataSource,
  postSqlDataSource,
  previewSqlDataSource,
  putSqlDataSource,
} from '@datalab/contract/api/sql-data-sources';
import type { FastifyInstance } from 'fastify';
import { declaredCollection, route } from '../../routing/route.ts';
import {
  assetDetail,
  assetsOfCollection,
  createSqlAsset,
  deleteSqlAsset,
  listCallable,
  updateSqlAsset,
} from './assets.service.ts';
import { deletionStores } from '../dependents/leftovers.service.ts';
import { boundValues } from './bindings.service.ts';
import { previewParameterOptions } from './parameter-preview.service.ts';
import { parameterDataSources } from './parameter-sources.service.ts';
import * as parts from './parts.service.ts';
import { recentCalls } from './recent-calls.service.ts';
import { parameterData, preview, type RunServices } from './run.service.ts';
import { restoreVersion, versionOf, versionsOf } from './versions.service.ts';

// Data assets: Readers see and call them; Editors create and change assets, parameters, transformations and
// client tool configuration (product §14), and read and restore an asset's history (its versions hold the whole
// definition, which is the editors' business). Hidden → 404, visible but not allowed → 403 (route-access.ts).

export default async function dataSourceRoutes(app: FastifyInstance) {
  const run = (): RunServices => ({ db: app.db, runtime: app.sqlRuntime, connectors: app.connectors });
  const asset = { params: 'id' } as const;
  const read = { collection: 'read', dataAsset: asset } as const;
  const edit = { collection: 'editAssets', dataAsset: asset } as const;

  route(app, calls.getAllDataSources, { signedIn: true }, async (c) => listCallable(c.actor, c.query));
  route(app, calls.getDataSourcesOfCollection, { collection: 'read', uid: { query: 'collectionUid' } }, async (c) =>
    assetsOfCollection(app.db, declaredCollection(c.collection), c.role),
  );
  route(app, calls.getDataSourceByUid, { collection: 'read', dataAsset: { params: 'uid' } }, async (c) =>
    assetDetail(c.actor, declaredCollection(c.collection), c.role, c.params.uid),
  );

  route(app, postSqlDataSource, { collection: 'editAssets', uid: { body: 'collectionUid' } }, async (c) =>
    createSqlAsset(c.actor, declaredCollection(c.collection), c.role, c.body),
  );
  route(app, putSqlDataSource, { collection: 'editAssets', dataAsset: { body: 'uid' } }, async (c) =>
    updateSqlAsset(c.actor, declaredCollection(c.collection), c.role, c.body),
  );
  route(app, deleteSqlDataSource, { collection: 'editAssets', dataAsset: { query: 'uid' } }, async (c) =>
    deleteSqlAsset(c.actor, c.query.uid, deletionStores(app)),
  );
  route(app, previewSqlDataSource, { collection: 'editAssets', uid: { body: 'collectionUid' } }, async (c) =>
    preview(run(), declaredCollection(c.collection), c.body),
  );

  route(app, calls.postParameter, edit, async (c) =>
    parts.addParameter(c.actor, declaredCollection(c.collection), c.params.id, c.body),
  );
  route(app, calls.putParameters, edit, async (c) =>
    parts.setParameters(c.actor, declaredCollection(c.collection), c.params.id, c.body.parameters),
  );
  route(app, calls.deleteParameter, { collection: 'editAssets', parameter: { params: 'id' } }, async (c) =>
    parts.removeParameter(c.actor, Number(c.params.id)),
  );
  route(app, calls.getParameterDataSources, read, async (c) =>
    parameterDataSources(app.db, declaredCollection(c.collection), c.params.id),
  );
  route(app, calls.getParameterData, { collection: 'call', parameter: { params: 'id' } }, async (c) =>
    parameterData(run(), Number(c.params.id), c.query),
  );
  // An addition (docs/decisions.md): the asset editor's live dropdown of a parameter not saved yet.
  route(app, calls.previewParameterData, { collection: 'editAssets', uid: { body: 'collectionUid' } }, async (c) =>
    previewParameterOptions(run(), declaredCollection(c.collection), c.body),
  );
  // Not in product §7 (docs/decisions.md): the developer-mode call screen's bound values and the asset's recent calls.
  route(app, calls.postBoundValues, { collection: 'call', dataAsset: asset }, async (c) =>
    boundValues(app.db, c.params.id, c.body),
  );
  route(app, calls.getRecentCalls, read, async (c) => recentCalls(c.actor, c.role, c.params.id, c.query.take));

  route(app, calls.getTransformations, read, async (c) => parts.listTransformations(app.db, c.params.id));
  route(app, calls.postTransformation, edit, async (c) => parts.addTransformation(c.actor, c.params.id, c.body));
  route(app, calls.putTransformations, edit, async (c) =>
    parts.setTransformations(c.actor, c.params.id, c.body.transformations),
  );
  route(app, calls.deleteTransformation, edit, async (c) =>
    parts.removeTransformation(c.actor, c.params.id, Number(c.params.tid)),
  );
  route(app, calls.postTransformationRule, edit, async (c) =>
    parts.addRule(c.actor, c.params.id, Number(c.params.tid), c.body),
  );
  route(app, calls.putTransformationRules, edit, async (c) =>
    parts.setRules(c.actor, c.params.id, Number(c.params.tid), c.body.rules),
  );
  route(app, calls.deleteTransformationRule, edit, async (c) =>
    parts.removeRule(c.actor, c.params.id, Number(c.params.tid), Number(c.params.rid)),
  );

  const history = { collection: 'editAssets', dataAsset: { params: 'uid' } } as const;
  route(app, getAssetVersions, history, async (c) => versionsOf(c.actor, c.params.uid, c.query));
  route(app, getAssetVersion, history, async (c) => versionOf(c.actor, c.params.uid, c.params.version));
  route(app, restoreAssetVersion, history, async (c) =>
    restoreVersion(c.actor, declaredCollection(c.collection), c.role, c.params.uid, c.params.version),
  );

  route(app, calls.postClientToolConfiguration, edit, async (c) =>
    parts.setClientTool(c.actor, c.params.id, c.body, 'create'),
  );
  route(app, calls.putClientToolConfiguration, edit, async (c) =>
    parts.setClientTool(c.actor, c.params.id, c.body, 'upsert'),
  );
  route(app, calls.deleteClientToolConfiguration, edit, async (c) =>
    parts.removeClientTool(c.actor, c.params.id, Number(c.params.cid)),
  );
}
