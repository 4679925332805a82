import { contentTypes, type FileFormat } from '@datalab/engine';
import {
  DOWNLOAD_FILE_PATH,
  cancelDownload,
  getDownloadStatus,
  getMyDownloads,
  startDownload,
} from '@datalab/contract/api/downloads';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../../lib/errors.ts';
import { route } from '../../routing/route.ts';
import { authorizeRoute, type RouteAccess } from '../access/route-access.ts';
import { slug } from '../calling/service.ts';
import { openJobFile } from './files.ts';
import { presentJob } from './presenter.ts';
import { cancelJob, completedJob, myJobs, ownJob, startDownload as start } from './service.ts';

// The Download calls (product §7, product §15). A job is data of its collection: starting authorizes on the asset through
// the calling layer's own path (service.ts); a job's status and file are authorized, on every request, as a call of
// its collection's data (the caller's effective access narrowed by their token: a lost role, a narrower token or
// a disabled owner answers 404) — and only its owner finds it at all; the list shows only such jobs.

const SIGNED_IN: RouteAccess = { signedIn: true };
/** The caller's own job, on whose collection they may still call data. */
export const JOB_ACCESS: RouteAccess = { collection: 'call', download: { params: 'id' } };

/** Content-Disposition for a job's file: an ASCII name every client reads and the UTF-8 one (RFC 6266/8187). */
function disposition(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  const base = fileName.slice(0, dot);
  const ext = fileName.slice(dot + 1);
  const ascii = `${slug(base, true) || 'data'}.${ext}`;
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

export default async function downloadRoutes(app: FastifyInstance) {
  const deps = app.downloads.deps;

  // Starting a job counts against the caller's general call budget (RateLimit headers, 429), as a call does.
  route(app, startDownload, SIGNED_IN, async ({ request, reply, user, body }) => {
    await app.callLimits.consume(reply, user);
    return presentJob(await start(deps, user, body, request.id), Date.now());
  });

  route(app, getDownloadStatus, JOB_ACCESS, async ({ user, params }) =>
    presentJob(await ownJob(app.db, user, params.id), Date.now()),
  );

  // Cancelling is authorized exactly as reading the job's status is: its owner, while they may call its data.
  route(app, cancelDownload, JOB_ACCESS, async ({ user, params }) =>
    presentJob(await cancelJob(deps, user, params.id), Date.now()),
  );

  route(app, getMyDownloads, SIGNED_IN, async ({ user, query }) => {
    const { items, totalCount } = await myJobs(app.db, app.access, user, query.page, query.pageSize);
    const now = Date.now();
    return { items: items.map((row) => presentJob(row, now)), totalCount, page: query.page, pageSize: query.pageSize };
  });

  // The file itself is not JSON, so not a contract call: the same pipeline by hand (authenticate, authorize as
  // declared, then the owner's Completed and unexpired job).
  const fileName = `GET ${DOWNLOAD_FILE_PATH}`;
  const fileAccess = app.accessOverride ? app.accessOverride(fileName, JOB_ACCESS) : JOB_ACCESS;
  app.get(
    DOWNLOAD_FILE_PATH,
    {
      config: { access: fileAccess },
      onRequest: (request) => app.authenticate(request).then(() => undefined),
      schema: { hide: true },
      exposeHeadRoute: false,
    },
    async (request, reply) => {
      const user = request.user;
      if (!user) throw new Error('authenticate did not run');
      await authorizeRoute(app, request, fileAccess);
      const { id } = request.params as { id: string };
      const job = await completedJob(app.db, user, String(id), Date.now());
      const stream = openJobFile(deps.dir, job.id, job.format);
      // A file swept away between the lookup and the read answers as a job with no file: 404.
      await new Promise<void>((resolve, reject) => stream.once('open', () => resolve()).once('error', reject)).catch(
        () => {
          throw notFound('Download', job.id);
        },
      );
      return reply
        .type(contentTypes[job.format as FileFormat])
        .header('content-disposition', disposition(job.file_name))
        .header('cache-control', 'no-store')
        .send(stream);
    },
  );
}
