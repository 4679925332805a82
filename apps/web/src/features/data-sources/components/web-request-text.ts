import type { WebApiAssetPart } from '@datalab/contract/web-api-request';
import { detectTemplateParameters } from '../../../lib/template-parameters.ts';

// A Web API asset's stored request as text for the developer view: the templates with their {name} placeholders,
// never a secret (the credential is named, its secret stays on the server).

function pagingText(paging: WebApiAssetPart['request']['paging']): string {
  switch (paging.kind) {
    case 'none':
      return 'none';
    case 'next':
      return paging.path ? `next link at ${paging.path}` : 'next link in the Link header';
    case 'page': {
      const size =
        paging.size === undefined ? '' : `, ${paging.size} a page${paging.sizeParam ? ` (${paging.sizeParam})` : ''}`;
      return `page numbers in ${paging.param} from ${paging.start}${size}`;
    }
  }
}

export function webRequestText({ request, credential }: WebApiAssetPart): string {
  const query = Object.entries(request.query);
  const lines = [`${request.method} ${request.path || '/'}`];
  if (query.length > 0) lines.push('', 'Query:', ...query.map(([name, value]) => `  ${name} = ${value}`));
  const headers = Object.entries(request.headers);
  if (headers.length > 0) lines.push('', 'Headers:', ...headers.map(([name, value]) => `  ${name}: ${value}`));
  if (request.body !== undefined && request.body !== null) {
    lines.push('', 'Body:', JSON.stringify(request.body, null, 2));
  }
  lines.push(
    '',
    `Rows at: ${request.rowsPath || 'the reply itself'}`,
    `Paging: ${pagingText(request.paging)}`,
    `Credential: ${credential ? `${credential.name} (${credential.kind})` : 'none'}`,
  );
  return lines.join('\n');
}

/** The {name} placeholders the stored request uses (path, query, headers, body). */
export function requestPlaceholders({ request }: WebApiAssetPart): Set<string> {
  return new Set(
    detectTemplateParameters({
      path: request.path,
      query: Object.values(request.query),
      headers: Object.values(request.headers),
      body: request.body === undefined ? '' : JSON.stringify(request.body),
    }),
  );
}
