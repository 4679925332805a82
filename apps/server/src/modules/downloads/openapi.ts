import { contentTypes } from '@datalab/engine';
import { DOWNLOAD_FILE_PATH } from '@datalab/contract/api/downloads';

/**
 * The file route's entry in /api/docs (plugins/openapi.ts adds it): it has no contract schema, since its body is the
 * file, yet callers of the API need to find it.
 */
export const downloadFileOperation = {
  path: DOWNLOAD_FILE_PATH.replace(':id', '{id}'),
  item: {
    get: {
      tags: ['Download'],
      summary:
        "A Completed job's file, in its format (only the job's owner may fetch it, while they may call its collection's data)",
      security: [{ bearer: [] }],
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      responses: {
        '200': {
          description: 'The file, with a Content-Disposition naming it',
          content: Object.fromEntries(
            Object.values(contentTypes).map((type) => [type, { schema: { type: 'string', format: 'binary' } }]),
          ),
        },
        '401': { description: 'Not signed in' },
        '403': { description: "The job's collection is visible to the caller, who may no longer call its data" },
        '404': {
          description:
            "No such job of the caller, its collection's data no longer callable by them, not Completed, or expired",
        },
      },
    },
  },
};
