import { describe, expect, it } from 'vitest';
import { existedBeforeJob, jobRecordId, writtenBy } from './jobs.settlement.js';

describe('records keyed by the job that writes them', () => {
  it('a job names the record of a row the same way on every run, and differently from any other job, row or kind', () => {
    const id = jobRecordId('job-1', 'shipment', 14);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(jobRecordId('job-1', 'shipment', 14)).toBe(id);
    expect(new Set([id, jobRecordId('job-2', 'shipment', 14), jobRecordId('job-1', 'shipment', 15), jobRecordId('job-1', 'finding', 14)]).size).toBe(4);
  });

  it('a record absent before the write did not exist before the job', () => {
    expect(existedBeforeJob(undefined, 'job-1')).toBe(false);
    expect(writtenBy('job-1', undefined)).toEqual({ jobId: 'job-1', existedBefore: false });
  });

  it('a record another job (or no job) wrote existed before this one', () => {
    expect(existedBeforeJob({ jobId: 'job-0', existedBefore: false }, 'job-1')).toBe(true);
    expect(existedBeforeJob({}, 'job-1')).toBe(true);
  });

  it('a record an earlier run of the same job wrote existed before the job exactly when that run found it', () => {
    const created = writtenBy('job-1', undefined);
    const replaced = writtenBy('job-1', { jobId: 'job-0' });
    expect(existedBeforeJob(created, 'job-1')).toBe(false);
    expect(existedBeforeJob(replaced, 'job-1')).toBe(true);
    // and a third run still answers what the first one found
    expect(writtenBy('job-1', writtenBy('job-1', created))).toEqual({ jobId: 'job-1', existedBefore: false });
  });
});
