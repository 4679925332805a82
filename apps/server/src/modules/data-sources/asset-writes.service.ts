// What another module writes of an asset, the way the asset calls write it: its row (an update bumps its version),
// its parameters, transformations and client tools, and the checks those calls make. The definitions module applies
// a document through these, inside its own transaction.

export { deleteAsset, insertAsset, updateAsset } from './repository.ts';
export {
  deleteTransformations,
  insertTransformation,
  replaceClientTools,
  replaceParameters,
  upsertClientTool,
} from './parts.repository.ts';
export { checkTransformations, placeholderUndefined, templatePlaceholderUndefined } from './validation.ts';
