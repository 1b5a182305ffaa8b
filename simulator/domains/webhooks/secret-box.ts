// spec 6: "stored encrypted at rest". Webhook secrets are sealed with AES-256-GCM under a key generated once
// and kept in its own store record; the only file touching the `webhookKeys` collection.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { KernelDeps } from '../../kernel/deps.js';

export interface SealedSecret {
  alg: 'A256GCM';
  iv: string;
  tag: string;
  data: string;
}

interface KeyRecord {
  id: string;
  rev?: number;
  key: string;
  createdAt: string;
}

const KEY_ID = 'webhook-secret-key';

export function secretBox(deps: Pick<KernelDeps, 'store' | 'clock'>) {
  const keys = deps.store.collection<KeyRecord>('webhookKeys');
  // The key and nonces come from node:crypto, not the seeded id generator: a replayed seed must not give
  // away the key, and a GCM nonce must never repeat under one key.
  const key = async (): Promise<Buffer> => {
    // create() loses to a concurrent creator (another instance): then the winner's key is read.
    const record =
      (await keys.get(KEY_ID)) ?? (await keys.create({ id: KEY_ID, key: randomBytes(32).toString('base64'), createdAt: deps.clock.nowIso() })) ?? (await keys.get(KEY_ID))!;
    return Buffer.from(record.key, 'base64');
  };
  return {
    /** `context` (the job id) is bound as associated data: a sealed secret cannot be moved to another job. */
    async seal(plain: string, context: string): Promise<SealedSecret> {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', await key(), iv);
      cipher.setAAD(Buffer.from(context));
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return { alg: 'A256GCM', iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), data: data.toString('base64') };
    },
    async open(sealed: SealedSecret, context: string): Promise<string> {
      const decipher = createDecipheriv('aes-256-gcm', await key(), Buffer.from(sealed.iv, 'base64'));
      decipher.setAAD(Buffer.from(context));
      decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64')), decipher.final()]).toString('utf8');
    },
  };
}

export type SecretBox = ReturnType<typeof secretBox>;
