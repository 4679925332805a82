import {
  admin,
  api,
  asset,
  completedJob,
  operations,
  partner,
  partnerId,
  record,
  sales,
  shop,
  short,
  sleep,
  unique,
} from './world.ts';

// Downloads through the one authorization path: a token narrowed to another collection, a withdrawn role, expiry.

/** A narrowed token, a withdrawn role and an expired file. */
export async function downloadCases(): Promise<void> {
  const plain = await asset(shop, 'select id from orders');
  const narrowed = await api(admin, 'POST', '/api/Token', {
    name: unique('narrowed'),
    kind: 'personal',
    roles: [{ collectionUid: operations, role: 'Reader' }],
  });
  const secret: string = narrowed.json.secret;
  const job = await completedJob(admin, plain);
  const list = await api(secret, 'GET', '/api/Download');
  const status = await api(secret, 'GET', `/api/Download/${job.id}/Status`);
  const file = await api(secret, 'GET', `/api/Download/${job.id}/File`);
  const own = await api(admin, 'GET', `/api/Download/${job.id}/File`);
  record(
    'Download with a token narrowed to another collection',
    `admin's token narrowed to Operations: GET /api/Download, /{id}/Status, /{id}/File of a Sales job`,
    !list.json.items.some((j: { id: string }) => j.id === job.id) && status.status === 404 && file.status === 404,
    `list ${list.status} without the job; Status ${short(status)}; File ${file.status}; the owner's session ${own.status}`,
  );
  const tokens = await api(secret, 'GET', '/api/Token/GetAll');
  const names = (tokens.json.items ?? tokens.json).map((t: { name: string }) => t.name);
  record(
    'Narrowed token lists tokens',
    'GET /api/Token/GetAll with the token narrowed to Operations',
    tokens.status === 403 || names.length <= 1,
    `${tokens.status}, ${names.length} token(s): ${names.join(', ').slice(0, 80)}`,
  );

  const partnerJob = await completedJob(partner, plain);
  const before = await api(partner, 'GET', `/api/Download/${partnerJob.id}/File`);
  await api(admin, 'PUT', `/api/DataRole/${partnerId}/UserDataRoles`, { collectionUid: sales, role: null });
  const after = await api(partner, 'GET', `/api/Download/${partnerJob.id}/File`);
  const afterStatus = await api(partner, 'GET', `/api/Download/${partnerJob.id}/Status`);
  await api(admin, 'PUT', `/api/DataRole/${partnerId}/UserDataRoles`, { collectionUid: sales, role: 'Reader' });
  record(
    'Download after the role was withdrawn',
    "partner downloads a Sales file, admin withdraws partner's Sales role, partner fetches the file again",
    before.status === 200 && after.status === 404 && afterStatus.status === 404,
    `before ${before.status}; after: File ${short(after)}, Status ${afterStatus.status}`,
  );

  const expiresAt = Date.parse(job.expiresAt);
  await sleep(Math.max(0, expiresAt - Date.now()) + 500);
  const expired = await api(admin, 'GET', `/api/Download/${job.id}/File`);
  const expiredStatus = await api(admin, 'GET', `/api/Download/${job.id}/Status`);
  record(
    'Download past expiresAt',
    'DOWNLOAD_RETENTION_HOURS=0.01; the owner fetches the file 0.5 s after its expiresAt (before the sweep)',
    expired.status !== 200,
    `File ${short(expired)}; Status ${expiredStatus.status} ${expiredStatus.json?.state}`,
  );
}
