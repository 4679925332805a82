import { expect } from 'vitest';
import { assetVersion, assetVersionSummary } from '@datalab/contract/api/asset-versions';
import { pageOf } from '@datalab/contract/paging';
import type { Person } from './builders.ts';

// An asset's history through its calls (GET /api/DataSource/{uid}/Versions, one version, Restore), as the SQL and
// the Web API history suites read and restore it.

/** A page of the version list. */
export const versionPage = pageOf(assetVersionSummary);

/** The versions `person` lists of asset `uid`, newest first (up to 100). */
export async function versions(person: Person, uid: string) {
  const response = await person.call('GET', `/api/DataSource/${uid}/Versions?pageSize=100`);
  expect(response.statusCode, response.body).toBe(200);
  return versionPage.parse(response.json()).items;
}

/** Version `n` of asset `uid`, with its whole definition. */
export async function version(person: Person, uid: string, n: number) {
  const response = await person.call('GET', `/api/DataSource/${uid}/Versions/${n}`);
  expect(response.statusCode, response.body).toBe(200);
  return assetVersion.parse(response.json());
}

/** Restores version `n` of asset `uid`; answers the reply, whatever its status. */
export const restore = (person: Person, uid: string, n: number) =>
  person.call('POST', `/api/DataSource/${uid}/Versions/${n}/Restore`);
