import { describe, expect, it } from 'vitest';
import { EngineError } from '../errors.ts';
import { describeConnectFailure } from './connect-errors.ts';

// The reasons no service on this machine can produce for the HTTP tests (a server that requires TLS, a certificate
// that fails), read from errors shaped as the drivers throw them; the others are tested through HTTP against the
// real PostgreSQL and MariaDB (apps/server/src/modules/connections/test-failures.test.ts).

const driverError = (message: string, code?: string) => Object.assign(new Error(message), code ? { code } : {});
const unreachable = (cause: unknown) => new EngineError('UNREACHABLE', undefined, { cause });

describe('describeConnectFailure', () => {
  it('tells TLS required from an authentication failure (both SQLSTATE 28000 on PostgreSQL)', () => {
    const noTls = driverError(
      'no pg_hba.conf entry for host "10.0.0.5", user "app", database "shop", no encryption',
      '28000',
    );
    expect(describeConnectFailure(unreachable(noTls))).toMatchObject({ reason: 'tlsRequired', field: 'ssl' });
    const wrongUser = driverError('role "app" does not exist', '28000');
    expect(describeConnectFailure(unreachable(wrongUser))).toMatchObject({
      reason: 'authenticationFailed',
      field: 'password',
    });
    const mariaDb = driverError('Connections using insecure transport are prohibited', 'ER_SECURE_TRANSPORT_REQUIRED');
    expect(describeConnectFailure(unreachable(mariaDb))?.message).toMatch(/^TLS required: .*Turn on TLS/);
  });

  it('says TLS failed for a certificate that cannot be verified, and reads an AggregateError', () => {
    const certificate = driverError('self-signed certificate', 'DEPTH_ZERO_SELF_SIGNED_CERT');
    expect(describeConnectFailure(unreachable(certificate), 'web API')).toMatchObject({
      reason: 'tlsFailed',
      field: 'baseUrl',
    });
    const both = new AggregateError([driverError('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED')], '');
    expect(describeConnectFailure(unreachable(both))).toMatchObject({ reason: 'refused', field: 'port' });
  });

  it('leaves other engine errors alone, and falls back to unreachable without a known cause', () => {
    expect(describeConnectFailure(new EngineError('SYNTAX', 'The query has a syntax error'))).toBeUndefined();
    expect(describeConnectFailure(unreachable(new Error('strange')))).toMatchObject({ reason: 'unreachable' });
  });
});
