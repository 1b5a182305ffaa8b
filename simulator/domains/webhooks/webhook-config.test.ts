// Webhook configuration on enqueue bodies (spec 6, decision 10): both forms, the URL and secret rules, the
// event names, and the SSRF refusal of literal blocked hosts.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../kernel/errors.js';
import { parseWebhookConfig } from './webhook-config.js';

const parse = (body: unknown, allow: string[] = []) => parseWebhookConfig(body, allow);

function refusal(body: unknown, allow: string[] = []): { status: number; code: string; field: unknown } {
  try {
    parse(body, allow);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { status: error.status, code: error.code, field: error.details?.field };
  }
  throw new Error(`accepted ${JSON.stringify(body)}`);
}

const refused = (field: string) => ({ status: 400, code: 'INVALID_REQUEST', field });

describe('parseConfig', () => {
  it('returns null for a body without webhook fields', () => {
    expect(parse({ skus: ['A-1'] })).toBeNull();
    expect(parse(undefined)).toBeNull();
    expect(parse({ webhookUrl: null, webhook: null })).toBeNull();
  });

  it('reads the top-level form with both events by default', () => {
    expect(parse({ webhookUrl: 'https://hooks.example.com/in', webhookSecret: 's3cret' })).toEqual({
      url: 'https://hooks.example.com/in',
      secret: 's3cret',
      events: ['job.completed', 'job.failed'],
    });
  });

  it('reads the nested form as multipart delivers it (an object, events as an array)', () => {
    expect(parse({ file: 'catalog.csv', webhook: { url: 'http://hooks.example.com/in', events: ['job.failed'] } })).toEqual({
      url: 'http://hooks.example.com/in',
      secret: null,
      events: ['job.failed'],
    });
    expect(parse({ webhookUrl: 'https://hooks.example.com/in', webhookEvents: 'job.completed' })?.events).toEqual(['job.completed']);
  });

  it('accepts both forms when they are identical and refuses them when they differ', () => {
    const top = { webhookUrl: 'https://hooks.example.com/in', webhookSecret: 's', webhookEvents: ['job.failed', 'job.completed'] };
    expect(parse({ ...top, webhook: { url: 'https://hooks.example.com/in', secret: 's' } })).toEqual({
      url: 'https://hooks.example.com/in',
      secret: 's',
      events: ['job.failed', 'job.completed'],
    });
    expect(refusal({ ...top, webhook: { url: 'https://hooks.example.com/other', secret: 's' } })).toEqual(refused('webhook'));
    expect(refusal({ ...top, webhook: { url: 'https://hooks.example.com/in' } })).toEqual(refused('webhook'));
  });

  it('refuses a URL that is not http or https, naming the field', () => {
    expect(refusal({ webhookUrl: 'ftp://hooks.example.com/in' })).toEqual(refused('webhookUrl'));
    expect(refusal({ webhookUrl: 'not a url' })).toEqual(refused('webhookUrl'));
    expect(refusal({ webhook: { url: 'javascript:alert(1)' } })).toEqual(refused('webhook.url'));
    expect(refusal({ webhook: 'not json' })).toEqual(refused('webhook'));
  });

  it('requires a URL when a secret or events are given', () => {
    expect(refusal({ webhookSecret: 's' })).toEqual(refused('webhookUrl'));
    expect(refusal({ webhook: { events: ['job.failed'] } })).toEqual(refused('webhook.url'));
  });

  it('requires https when a secret is set', () => {
    expect(refusal({ webhookUrl: 'http://hooks.example.com/in', webhookSecret: 's' })).toEqual(refused('webhookUrl'));
    expect(refusal({ webhook: { url: 'http://hooks.example.com/in', secret: 's' } })).toEqual(refused('webhook.url'));
    expect(parse({ webhookUrl: 'HTTPS://hooks.example.com/in', webhookSecret: 's' })?.url).toBe('https://hooks.example.com/in');
  });

  it('accepts a 512-character secret and refuses 513 characters or an empty secret', () => {
    expect(parse({ webhookUrl: 'https://hooks.example.com/', webhookSecret: 'x'.repeat(512) })?.secret).toHaveLength(512);
    expect(refusal({ webhookUrl: 'https://hooks.example.com/', webhookSecret: 'x'.repeat(513) })).toEqual(refused('webhookSecret'));
    expect(refusal({ webhook: { url: 'https://hooks.example.com/', secret: '' } })).toEqual(refused('webhook.secret'));
  });

  it('refuses an unknown, duplicated or empty event list', () => {
    expect(refusal({ webhookUrl: 'https://hooks.example.com/', webhookEvents: ['job.started'] })).toEqual(refused('webhookEvents'));
    expect(refusal({ webhook: { url: 'https://hooks.example.com/', events: ['job.failed', 'job.failed'] } })).toEqual(refused('webhook.events'));
    expect(refusal({ webhookUrl: 'https://hooks.example.com/', webhookEvents: [] })).toEqual(refused('webhookEvents'));
  });

  it.each([
    ['127.0.0.0/8', 'http://127.0.0.5/in'],
    ['10.0.0.0/8', 'http://10.20.30.40/in'],
    ['172.16.0.0/12', 'https://172.31.255.254/in'],
    ['192.168.0.0/16', 'http://192.168.1.10:8080/in'],
    ['169.254.0.0/16', 'http://169.254.169.254/latest/meta-data'],
    ['localhost', 'http://localhost:3000/in'],
    ['localhost with a trailing dot', 'http://LOCALHOST./in'],
    ['[::1]', 'http://[::1]:8080/in'],
    ['::ffff:127.0.0.1', 'http://[::ffff:127.0.0.1]/in'],
    ['0.0.0.0', 'http://0.0.0.0/in'],
    ['127.0.0.1 written as a decimal number', 'http://2130706433/in'],
  ])('refuses a literal blocked target at enqueue: %s', (_name, url) => {
    expect(refusal({ webhookUrl: url })).toEqual(refused('webhookUrl'));
    expect(refusal({ webhook: { url } })).toEqual(refused('webhook.url'));
  });

  it('accepts a public hostname and addresses just outside the blocked ranges', () => {
    for (const url of ['https://hooks.example.com/in', 'http://172.15.255.255/', 'http://172.32.0.1/', 'http://11.0.0.1/', 'http://192.169.0.1/', 'http://[2001:db8::1]/']) {
      expect(parse({ webhookUrl: url })?.url).toBe(new URL(url).href);
    }
  });

  it('lets a target on the local allow list through, with plain http even when a secret is set', () => {
    const allow = ['127.0.0.1:45123', 'localhost'];
    expect(parse({ webhookUrl: 'http://127.0.0.1:45123/in', webhookSecret: 's' }, allow)?.url).toBe('http://127.0.0.1:45123/in');
    expect(parse({ webhookUrl: 'http://localhost:9999/in', webhookSecret: 's' }, allow)?.url).toBe('http://localhost:9999/in');
    expect(refusal({ webhookUrl: 'http://127.0.0.1:45124/in' }, allow)).toEqual(refused('webhookUrl'));
    expect(refusal({ webhookUrl: 'http://hooks.example.com/in', webhookSecret: 's' }, allow)).toEqual(refused('webhookUrl'));
  });
});
