import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { ConfigError } from '../config/index.ts';
import { keyId, masterKey, MASTER_KEY_FILE } from './master-key.ts';

const root = mkdtempSync(path.join(tmpdir(), 'lamis-master-key-'));
after(() => rmSync(root, { recursive: true, force: true }));
let folders = 0;
const freshDir = () => path.join(root, `data-${folders++}`);
const unix = { skip: process.platform === 'win32' ? 'no Unix permissions on Windows' : false };

describe('master key from LAMIS_MASTER_KEY', () => {
  const key = randomBytes(32);

  test('hex, base64 and base64url of 32 bytes all read as the key; no file is made', () => {
    const dataDir = freshDir();
    const writings = [key.toString('hex'), key.toString('hex').toUpperCase(), key.toString('base64'),
      key.toString('base64url'), `${key.toString('base64')}\n`];
    for (const fromEnv of writings) {
      const found = masterKey({ fromEnv, dataDir });
      assert.deepEqual(found.key, key);
      assert.deepEqual(found.source, { kind: 'env', variable: 'LAMIS_MASTER_KEY' });
      assert.equal(found.id, keyId(key));
    }
    assert.throws(() => readdirSync(dataDir), { code: 'ENOENT' });
  });

  test('anything else is an error naming the variable, without showing the value', () => {
    const bad = ['', '   ', 'not-a-key', randomBytes(31).toString('hex'), randomBytes(33).toString('hex'),
      randomBytes(31).toString('base64'), randomBytes(33).toString('base64'), randomBytes(48).toString('base64'),
      `${key.toString('hex').slice(0, 63)}g`, `${key.toString('base64').slice(0, 42)}!=`];
    for (const fromEnv of bad) {
      assert.throws(() => masterKey({ fromEnv, dataDir: freshDir() }), (error: Error) => error instanceof ConfigError
        && /LAMIS_MASTER_KEY: must be 32 random bytes/.test(error.message)
        && (fromEnv.trim() === '' || !error.message.includes(fromEnv.trim())), JSON.stringify(fromEnv));
    }
  });
});

describe('master key file in the data folder', () => {
  test('made once with mode 0600, then reused', unix, () => {
    const dataDir = freshDir();
    const first = masterKey({ dataDir });
    const file = path.resolve(dataDir, MASTER_KEY_FILE);
    assert.deepEqual(first.source, { kind: 'file', file, created: true });
    assert.equal(first.key.length, 32);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.deepEqual(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64'), first.key);
    assert.deepEqual(readdirSync(dataDir), [MASTER_KEY_FILE]);

    const second = masterKey({ dataDir });
    assert.deepEqual(second.key, first.key);
    assert.equal(second.id, first.id);
    assert.deepEqual(second.source, { kind: 'file', file, created: false });
  });

  test('each data folder gets its own key', () => {
    assert.notDeepEqual(masterKey({ dataDir: freshDir() }).key, masterKey({ dataDir: freshDir() }).key);
  });

  test('a key file open to group or others is refused, with the fix in the message', unix, () => {
    for (const mode of [0o640, 0o604, 0o620, 0o660]) {
      const dataDir = freshDir();
      masterKey({ dataDir });
      const file = path.resolve(dataDir, MASTER_KEY_FILE);
      chmodSync(file, mode);
      assert.throws(() => masterKey({ dataDir }), (error: Error) => error instanceof ConfigError
        && error.message.includes(`master key file ${file} is open to group or others (mode 0${mode.toString(8)})`)
        && error.message.includes(`chmod 600 ${file}`));
    }
  });

  test('a key file that holds no 32-byte key is refused, not replaced', () => {
    const dataDir = freshDir();
    masterKey({ dataDir });
    const file = path.resolve(dataDir, MASTER_KEY_FILE);
    writeFileSync(file, 'short\n', { mode: 0o600 });
    assert.throws(() => masterKey({ dataDir }), (error: Error) => error instanceof ConfigError
      && error.message.includes(`master key file ${file} does not hold a 32-byte key`));
    assert.equal(readFileSync(file, 'utf8'), 'short\n');
  });

  test('LAMIS_MASTER_KEY wins over an existing key file', () => {
    const dataDir = freshDir();
    const fromFile = masterKey({ dataDir }).key;
    const key = randomBytes(32);
    const found = masterKey({ fromEnv: key.toString('base64'), dataDir });
    assert.deepEqual(found.key, key);
    assert.notDeepEqual(found.key, fromFile);
  });
});
