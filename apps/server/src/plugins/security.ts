import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

// Security headers on every reply, with a strict Content-Security-Policy: scripts only from this
// origin (no inline script anywhere), styles from this origin plus a per-request nonce for the
// <style> tags the UI library writes.

function originOf(url: string): string {
  return new URL(url).origin;
}

export default fp(
  async (app: FastifyInstance) => {
    const { config } = app;
    const self = "'self'";
    const issuerOrigin = originOf(config.oidc.issuer);
    const external = [issuerOrigin, originOf(config.callingLayerUrl)].filter((origin) => origin !== originOf(config.publicUrl));
    await app.register(helmet, {
      global: true,
      enableCSPNonces: true,
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: [self],
          scriptSrc: [self],
          styleSrc: [self],
          imgSrc: [self, 'data:'],
          fontSrc: [self],
          connectSrc: [self, ...external],
          frameSrc: [self, ...(issuerOrigin === originOf(config.publicUrl) ? [] : [issuerOrigin])],
          formAction: [self, ...(issuerOrigin === originOf(config.publicUrl) ? [] : [issuerOrigin])],
          frameAncestors: ["'none'"],
          objectSrc: ["'none'"],
          baseUri: [self],
          ...(config.publicUrl.startsWith('https://') ? { upgradeInsecureRequests: [] } : {}),
        },
      },
      crossOriginEmbedderPolicy: false,
      strictTransportSecurity: config.publicUrl.startsWith('https://') ? { maxAge: 31_536_000, includeSubDomains: true } : false,
      referrerPolicy: { policy: 'no-referrer' },
    });
  },
  { name: 'security', dependencies: ['config'] },
);
