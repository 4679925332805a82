import type { DownloadJob } from '@datalab/contract/api/downloads';
import type { Person } from '../../../test/support/builders.ts';

// Polling a job through the API, as the portal does (only faster).

export async function waitFor(
  person: Person,
  id: string,
  done: (job: DownloadJob) => boolean = (job) => ['Completed', 'Failed', 'Expired'].includes(job.state),
  timeoutMs = 20_000,
): Promise<DownloadJob> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await person.call('GET', `/api/Download/${id}/Status`);
    if (response.statusCode !== 200) throw new Error(`status: ${response.statusCode} ${response.body}`);
    const job = response.json<DownloadJob>();
    if (done(job)) return job;
    if (Date.now() > deadline) throw new Error(`job ${id} still ${job.state} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function startJob(person: Person, body: Record<string, unknown>): Promise<DownloadJob> {
  const response = await person.call('POST', '/api/Download', body);
  if (response.statusCode !== 202) throw new Error(`start: ${response.statusCode} ${response.body}`);
  return response.json<DownloadJob>();
}
