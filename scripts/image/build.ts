import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { check, IMAGE, imageSizeMb, log, must, ROOT, run } from './harness.ts';

/** Builds the image on `base` with `buildah bud` and checks its configuration: user, HEALTHCHECK, OCI labels. */
export function buildImage(base: string): { buildSeconds: number; sizeMb: number } {
  log('== buildah bud --isolation chroot');
  const revision = run('git', ['rev-parse', '--short', 'HEAD']).stdout.trim() || 'unknown';
  const caBundle = process.env['NODE_EXTRA_CA_CERTS'];
  // Behind a TLS-inspecting proxy (as here), the build's npm needs the proxy's CA: mounted for the build only.
  const caArgs =
    caBundle && existsSync(caBundle)
      ? ['-v', `${caBundle}:/run/build-ca.crt:ro`, '--build-arg', 'NODE_EXTRA_CA_CERTS=/run/build-ca.crt']
      : [];
  const buildStarted = performance.now();
  const build = spawnSync(
    'buildah',
    [
      'bud',
      '--isolation',
      'chroot',
      '--layers',
      '--format',
      'docker',
      ...caArgs,
      '--build-arg',
      `NODE_IMAGE=${base}`,
      '--build-arg',
      `REVISION=${revision}`,
      '--build-arg',
      `CREATED=${new Date().toISOString()}`,
      '-t',
      IMAGE,
      '-f',
      'Containerfile',
      '.',
    ],
    { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] },
  );
  if (build.status !== 0) throw new Error('buildah bud failed (above)');
  const buildSeconds = (performance.now() - buildStarted) / 1000;

  const inspect = JSON.parse(must('buildah', ['inspect', '--type', 'image', IMAGE])) as {
    Docker: { config: { User: string; Healthcheck?: { Test: string[] }; Labels: Record<string, string> } };
  };
  const config = inspect.Docker.config;
  const sizeMb = imageSizeMb(IMAGE);
  check('the image runs as a numeric non-root user', /^[1-9]\d*:\d+$/.test(config.User), config.User);
  check(
    'the image has a HEALTHCHECK',
    Boolean(config.Healthcheck?.Test.includes('/app/deploy/container/healthcheck.mjs')),
  );
  check(
    'the image carries the OCI labels',
    ['title', 'version', 'revision', 'created'].every((label) => config.Labels[`org.opencontainers.image.${label}`]),
  );
  return { buildSeconds, sizeMb };
}
