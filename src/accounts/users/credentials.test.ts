import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { dictionary } from '@zxcvbn-ts/language-common';
import { hashPassword, normaliseEmail, passwordProblem, spendPasswordCheck, verifyPassword } from './credentials.ts';

describe('e-mail addresses', () => {
  test('are trimmed, the domain lower-cased, the local part kept for sending and lower-cased for comparing', () => {
    assert.deepEqual(normaliseEmail('  Anna.Eriksson+lamis@Example.COM '), {
      ok: true, address: 'Anna.Eriksson+lamis@example.com', key: 'anna.eriksson+lamis@example.com',
    });
  });

  test('international domains are written in ASCII', () => {
    const result = normaliseEmail('pilot@Bücher.example');
    assert.deepEqual(result, { ok: true, address: 'pilot@xn--bcher-kva.example', key: 'pilot@xn--bcher-kva.example' });
  });

  test('anything that is not a plain address is refused with a reason', () => {
    for (const bad of ['', 'anna', '@example.com', 'anna@', 'anna@localhost', 'anna@127.0.0.1', 'an na@example.com', 'anna@exa mple.com',
      '"anna"@example.com', 'anna@example.com/x', 'anna@-example.com', `${'a'.repeat(65)}@example.com`, `a@${['b', 'c', 'd', 'e'].map((c) => c.repeat(62)).join('.')}.com`]) {
      const result = normaliseEmail(bad);
      assert.equal(result.ok, false, bad);
      assert.ok(!result.ok && result.message.length > 0);
    }
  });
});

describe('password rules', () => {
  const email = 'anna@example.com';

  test('8 to 256 characters, counted as characters, not bytes or UTF-16 units', () => {
    assert.match(passwordProblem('short12', email) ?? '', /8 to 256 characters \(it has 7\)/);
    assert.equal(passwordProblem('eight ch', email), null);
    assert.equal(passwordProblem('x'.repeat(255) + 'y', email), null);
    assert.match(passwordProblem('x'.repeat(256) + 'y', email) ?? '', /it has 257/);
    // Eight astral characters are sixteen UTF-16 units, and still eight characters.
    assert.equal(passwordProblem('🛩🛳🚁⚓🛩🛳🚁x', email), null);
    assert.match(passwordProblem('🛩'.repeat(129) + 'x'.repeat(128), email) ?? '', /it has 257/);
  });

  test('not the e-mail address, in any case', () => {
    assert.equal(passwordProblem('Anna@Example.com', email), 'must not be your e-mail address');
    assert.equal(passwordProblem('anna@example.co', email), null);
  });

  test('not one character repeated', () => {
    assert.equal(passwordProblem('aaaaaaaaaa', email), 'must not be one character repeated');
    assert.equal(passwordProblem('🛩'.repeat(10), email), 'must not be one character repeated');
    assert.equal(passwordProblem('aaaaaaaaab', email), null);
  });

  test('not one of the common passwords, whatever the case or the keyboard\'s width', () => {
    const tooCommon = /^is too common: it is on a list of passwords leaked in breaches/;
    for (const common of ['password1', 'Password1', 'PASSWORD1', 'iloveyou', 'qwertyuiop', '1q2w3e4r', '\uff50\uff41\uff53\uff53\uff57\uff4f\uff52\uff44\uff11']) {
      assert.match(passwordProblem(common, email) ?? '', tooCommon, common);
    }
    // Anything more than a change of case makes another password.
    for (const fine of ['password1!', 'iloveyou so', 'correct horse battery']) assert.equal(passwordProblem(fine, email), null, fine);
  });

  test('every entry of the maintained list that is long enough is refused; shorter ones fail on length', () => {
    const list = dictionary['passwords-common'];
    assert.ok(list.length > 40_000, `the list has ${list.length} entries`);
    const long = list.filter((p) => [...p].length >= 8);
    assert.ok(long.length > 15_000);
    for (const common of long) assert.match(passwordProblem(common, email) ?? '', /too common|one character repeated/, common);
    assert.match(passwordProblem('dragon', email) ?? '', /8 to 256 characters/);
  });
});

describe('password hashes', () => {
  test('are argon2id PHC strings with a fresh salt, and verify only the same password', async () => {
    const first = await hashPassword('correct horse battery');
    const second = await hashPassword('correct horse battery');
    assert.match(first, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    assert.notEqual(first, second);
    assert.equal(await verifyPassword('correct horse battery', first), true);
    assert.equal(await verifyPassword('correct horse batterY', first), false);
    assert.equal(await verifyPassword('correct horse battery', 'not a hash'), false);
  });

  test('use the whole password: a change in the last of 256 characters fails', async () => {
    const long = 'p'.repeat(200) + 'q'.repeat(55);
    const hash = await hashPassword(`${long}A`);
    assert.equal(await verifyPassword(`${long}A`, hash), true);
    assert.equal(await verifyPassword(`${long}B`, hash), false);
    assert.equal(await verifyPassword(long, hash), false);
  });

  test('compare after NFKC normalisation: a composed and a decomposed é are the same password', async () => {
    const hash = await hashPassword('caf\u00e9 au lait');
    assert.equal(await verifyPassword('cafe\u0301 au lait', hash), true);
  });

  test('an unknown account costs a password check too, and matches nothing', async () => {
    await assert.doesNotReject(spendPasswordCheck('whatever it is'));
  });
});
