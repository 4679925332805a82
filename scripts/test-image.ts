import { isPostgresAvailable } from '../apps/server/test/support/stores.ts';
import { buildImage } from './image/build.ts';
import { embeddedContainer } from './image/container.ts';
import { check, IMAGE, imageSizeMb, log, must, requireTools, results } from './image/harness.ts';
import { scaleOut } from './image/scale-out.ts';

// `npm run test:image`: builds the image as a platform team would and runs it as one would, on this machine (no
// image registry, no container daemon): a stand-in Node base (deploy/local-base.sh), `buildah bud --isolation
// chroot`, then `buildah run --isolation chroot --network host` in the embedded mode. Checks readiness, the portal
// and the sign-in page, a data call with a Data Lab token, the non-root user, what the image holds (no dev packages,
// no sources), the role argument, and a clean stop on SIGTERM; then compose.yaml's shape (two web containers and a
// worker on the machine's PostgreSQL and Redis); reports the build's time and the image's size.
// Needs root, buildah and mmdebstrap (apt-get install buildah mmdebstrap). Layers are cached: a second run is fast.

async function main() {
  requireTools();
  const startedAt = performance.now();

  log('== stand-in base (deploy/local-base.sh)');
  const baseStarted = performance.now();
  const base = must('sh', ['deploy/local-base.sh']).split('\n').at(-1)!;
  const baseSeconds = (performance.now() - baseStarted) / 1000;
  log(`base ${base} in ${baseSeconds.toFixed(1)} s`);

  const { buildSeconds, sizeMb } = buildImage(base);
  const baseSizeMb = imageSizeMb(base);

  await embeddedContainer();

  if (await isPostgresAvailable()) {
    log('== the scale-out shape: two web containers and a worker on PostgreSQL and Redis');
    await scaleOut(IMAGE);
  } else {
    check('PostgreSQL answers on 127.0.0.1:5432 for the scale-out checks', false, 'bash scripts/ensure-services.sh');
  }

  const failed = results.filter((result) => !result.ok).length;
  log('');
  log(
    `base image ${base}: ${baseSizeMb.toFixed(0)} MB; image ${IMAGE}: ${sizeMb.toFixed(0)} MB (${(sizeMb - baseSizeMb).toFixed(0)} MB above the base)`,
  );
  log(
    `base ${baseSeconds.toFixed(1)} s, build ${buildSeconds.toFixed(1)} s, whole run ${((performance.now() - startedAt) / 1000).toFixed(1)} s`,
  );
  log(`test:image: ${results.length - failed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}

try {
  await main();
} catch (error) {
  process.stderr.write(`test:image: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
