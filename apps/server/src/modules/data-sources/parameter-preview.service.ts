import { collectOptions } from '@datalab/engine';
import { PARAMETER_PREVIEW_OPTION_CAP, type previewParameterData } from '@datalab/contract/api/data-sources';
import { messages } from '@datalab/contract/messages';
import type { z } from 'zod';
import type { Collection } from '../../db/schema.ts';
import { mapEngineErrors } from '../../lib/engine-errors.ts';
import { invalid } from '../../lib/errors.ts';
import { runParameterSource, type RunServices } from './run.service.ts';

// The asset editor's live dropdown: a parameter not saved yet, run from its parameter data source exactly as the
// calling layer runs it to check a caller's value (runParameterSource), so what the editor sees is what callers get.

type PreviewBody = z.output<NonNullable<(typeof previewParameterData)['body']>>;

/** The source's columns and, once a value column is chosen, the options they make (at most the preview's cap). */
export async function previewParameterOptions(s: RunServices, collection: Collection, body: PreviewBody) {
  return mapEngineErrors(async () => {
    const run = await runParameterSource(s, collection.id, body, body.values);
    if (!run) throw invalid('dataSourceId', messages.doesNotExist('Data asset', body.dataSourceId));
    const { result } = run;
    try {
      const columns = result.columns.map((column) => ({ name: column.name, type: column.type }));
      const known = new Set(columns.map((column) => column.name));
      if (body.valueColumn === undefined) return { columns, options: [], truncated: false };
      for (const field of ['valueColumn', 'labelColumn'] as const) {
        const column = body[field];
        if (column !== undefined && !known.has(column)) throw invalid(field, messages.noneFound(`column ${column}`));
      }
      const columnsUsed = { valueColumn: body.valueColumn, labelColumn: body.labelColumn ?? body.valueColumn };
      const options = await collectOptions(result.rows, columnsUsed, PARAMETER_PREVIEW_OPTION_CAP + 1);
      const truncated = options.length > PARAMETER_PREVIEW_OPTION_CAP;
      return { columns, options: options.slice(0, PARAMETER_PREVIEW_OPTION_CAP), truncated };
    } finally {
      await result.close();
    }
  });
}
