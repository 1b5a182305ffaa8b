// contractLifecycle over the real contracts, and its refusals on small synthetic documents.
import { describe, expect, it } from 'vitest';
import { loadContract, type Json, type OpenApiDocument } from './bundle.js';
import { contractLifecycle, contractLifecycleNames } from './lifecycles.js';

const docWith = (schemas: Record<string, Json>, paths: Record<string, Json> = {}): OpenApiDocument =>
  ({ openapi: '3.1.0', paths, components: { schemas } }) as OpenApiDocument;

describe('the lifecycles of the real contracts', () => {
  it('give the job states of spec 3.1 in v1.3.0, with COMPLETED and FAILED terminal', () => {
    const job = contractLifecycle(loadContract('v1.3.0'), 'job');
    expect(job.states).toEqual(['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED']);
    expect(job.terminal.sort()).toEqual(['COMPLETED', 'FAILED']);
  });

  it('name the lifecycles each version marks with x-lifecycle, signup sessions only before v1.3.0 (spec 4.7, 9.1)', () => {
    const current = contractLifecycleNames(loadContract('v1.3.0'));
    expect(current).toEqual(expect.arrayContaining(['claim-submission', 'classification-review', 'feed-session', 'finding', 'job', 'sima-workflow']));
    expect(current).not.toContain('signup-session');
    expect(contractLifecycleNames(loadContract('v1.2.0'))).toContain('signup-session');
  });

  it('give no terminal states to a lifecycle that declares none (sima-workflow, spec 3.5)', () => {
    expect(contractLifecycle(loadContract('v1.3.0'), 'sima-workflow')).toEqual({ states: ['OPEN', 'OVERRIDDEN', 'ACCEPTED', 'DISMISSED'], terminal: [] });
  });

  it('keep the job lifecycle the same in every archived version', () => {
    for (const version of ['v1.2.0', 'v1.1.0']) {
      expect(contractLifecycle(loadContract(version), 'job')).toEqual(contractLifecycle(loadContract('v1.3.0'), 'job'));
    }
  });
});

describe('contractLifecycle on a synthetic document', () => {
  const light = { type: 'string', enum: ['RED', 'GREEN'], 'x-lifecycle': 'light', 'x-terminal-states': ['RED'] };

  it('reads the enum and x-terminal-states of the marked schema, wherever it sits', () => {
    const inline = docWith({}, { '/lights': { get: { parameters: [{ name: 'status', in: 'query', schema: light }] } } });
    expect(contractLifecycle(inline, 'light')).toEqual({ states: ['RED', 'GREEN'], terminal: ['RED'] });
  });

  it('refuses a lifecycle the document does not declare, naming the ones it does', () => {
    expect(() => contractLifecycle(docWith({ Light: light }), 'door')).toThrow(/no lifecycle door .*declares: light/);
  });

  it('accepts the same lifecycle in two places when they agree as sets', () => {
    const reordered = { ...light, enum: ['GREEN', 'RED'] };
    expect(contractLifecycle(docWith({ Light: light, Copy: reordered }), 'light').states).toEqual(['RED', 'GREEN']);
  });

  it('refuses a lifecycle declared with different enums in two places, naming both', () => {
    const other = { ...light, enum: ['RED', 'GREEN', 'AMBER'] };
    expect(() => contractLifecycle(docWith({ Light: light, Other: other }), 'light')).toThrow(
      /different states at #\/components\/schemas\/Light .* and #\/components\/schemas\/Other/,
    );
  });

  it('refuses a lifecycle declared with different terminal states in two places', () => {
    const other = { ...light, 'x-terminal-states': ['GREEN'] };
    expect(() => contractLifecycle(docWith({ Light: light, Other: other }), 'light')).toThrow(/different terminal/);
  });

  it('refuses a marker without an enum, and a terminal state outside the enum', () => {
    expect(() => contractLifecycle(docWith({ Light: { type: 'string', 'x-lifecycle': 'light' } }), 'light')).toThrow(/no enum/);
    expect(() => contractLifecycle(docWith({ Light: { ...light, 'x-terminal-states': ['BLUE'] } }), 'light')).toThrow(/BLUE is not in its enum/);
  });
});
