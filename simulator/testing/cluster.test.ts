// The pure parts of the local cluster (cluster.ts): when its tests skip, and the load balancer's
// configuration. The cluster itself runs in simulator/cluster.test.ts and scripts/cluster.test.ts.
import { describe, expect, it } from 'vitest';
import { clusterSkipReason, haproxyConfig, haproxyPath } from './cluster.js';

describe('the cluster tests skip or fail', () => {
  const exists = (present: string[]) => (file: string) => present.some((p) => file === p || file.startsWith(`${p}/`));

  it('run when HAProxy is found (HAPROXY_PATH first)', () => {
    expect(haproxyPath({ HAPROXY_PATH: '/opt/haproxy' }, exists(['/opt/haproxy', '/usr/sbin/haproxy']))).toBe('/opt/haproxy');
    expect(haproxyPath({}, exists(['/usr/sbin/haproxy']))).toBe('/usr/sbin/haproxy');
    expect(haproxyPath({}, exists([]))).toBeNull();
  });

  it('skip locally without HAProxy, saying how to install it', () => {
    expect(clusterSkipReason({}, exists([]))).toContain('apt-get install haproxy');
  });

  it('never skip under CI, where a missing package must fail the run', () => {
    expect(clusterSkipReason({ CI: 'true' }, exists([]))).toBeNull();
    expect(clusterSkipReason({ CI: '1' }, exists([]))).toBeNull();
  });
});

describe("the load balancer's configuration", () => {
  const config = haproxyConfig(8080, [
    { id: 'sim-1', port: 4011 },
    { id: 'sim-2', port: 4012 },
  ]);

  it('listens on loopback only and balances round-robin over every instance, checked on /healthz', () => {
    expect(config).toMatch(/^ {2}bind 127\.0\.0\.1:8080$/m);
    expect(config.match(/^ {2}bind /gm)).toHaveLength(1);
    expect(config).toMatch(/^ {2}balance roundrobin$/m);
    expect(config).toMatch(/^ {2}option httpchk GET \/healthz$/m);
    expect(config).toMatch(/^ {2}server sim-1 127\.0\.0\.1:4011 check$/m);
    expect(config).toMatch(/^ {2}server sim-2 127\.0\.0\.1:4012 check$/m);
  });

  it('sends a request whose connection was refused to another instance', () => {
    expect(config).toMatch(/^ {2}retries [1-9]$/m);
    expect(config).toMatch(/^ {2}option redispatch 1$/m);
  });

  it('runs in the foreground: no daemon, no chroot, no user switch', () => {
    expect(config).not.toMatch(/^\s*(daemon|chroot|user|group)\b/m);
  });
});
