/**
 * Blob storage for screenshots, PDFs and raw files: bytes on disk under the data folder, a row
 * per blob, and signed expiring URLs. The token is an HMAC over (id, expiry), so a URL cannot be
 * guessed or extended, and the server can check it without a lookup before touching the disk.
 */
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

export interface BlobRef {
  id: string;
  mime: string;
  expiresAt: number;
}

export interface StoredBlob {
  mime: string;
  size: number;
  path: string;
}

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'application/pdf': 'pdf',
};

export class BlobStore {
  private readonly dir: string;
  private readonly secret: Buffer;

  constructor(
    private readonly db: Kysely<Database>,
    dataDir: string,
    private readonly ttlSeconds: number,
  ) {
    this.dir = path.join(dataDir, 'blobs');
    fs.mkdirSync(this.dir, { recursive: true });
    this.secret = loadOrCreateSecret(path.join(dataDir, 'blob-signing.key'));
  }

  async put(teamId: string, data: Buffer, mime: string): Promise<BlobRef> {
    const id = randomUUID();
    const now = Date.now();
    const expiresAt = now + this.ttlSeconds * 1000;
    await fsp.writeFile(this.file(id), data);
    await this.db.insertInto('blobs').values({ id, team_id: teamId, mime, size: data.length, created_at: now, expires_at: expiresAt }).execute();
    return { id, mime, expiresAt };
  }

  /** Path part of the public URL: `/v2/files/<id>.<ext>?expires=<ms>&sig=<hex>`. */
  urlPath(ref: BlobRef): string {
    const ext = EXTENSIONS[ref.mime] ?? 'bin';
    return `/v2/files/${ref.id}.${ext}?expires=${ref.expiresAt}&sig=${this.sign(ref.id, ref.expiresAt)}`;
  }

  /** Resolves a signed request to a file, or undefined when the link is forged, expired or gone. */
  async open(id: string, expires: number, sig: string): Promise<StoredBlob | undefined> {
    if (!/^[0-9a-f-]{36}$/.test(id) || !Number.isSafeInteger(expires) || expires < Date.now()) return undefined;
    const expected = Buffer.from(this.sign(id, expires), 'hex');
    const given = Buffer.from(sig, 'hex');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    const row = await this.db.selectFrom('blobs').select(['mime', 'size']).where('id', '=', id).executeTakeFirst();
    if (!row) return undefined;
    return { mime: row.mime, size: row.size, path: this.file(id) };
  }

  /** Deletes blobs whose links have expired. */
  async purgeExpired(now = Date.now()): Promise<number> {
    const rows = await this.db.selectFrom('blobs').select('id').where('expires_at', '<', now).execute();
    for (const { id } of rows) {
      await fsp.rm(this.file(id), { force: true });
      await this.db.deleteFrom('blobs').where('id', '=', id).execute();
    }
    return rows.length;
  }

  private file(id: string): string {
    return path.join(this.dir, id);
  }

  private sign(id: string, expires: number): string {
    return createHmac('sha256', this.secret).update(`${id}.${expires}`).digest('hex');
  }
}

function loadOrCreateSecret(file: string): Buffer {
  try {
    return fs.readFileSync(file);
  } catch {
    const secret = randomBytes(32);
    fs.writeFileSync(file, secret, { mode: 0o600 });
    return secret;
  }
}
