// Onboarding step 4: the identity check of uploaded government IDs, run in the background.
//
// An upload is stored sealed (envelope under the master key, bound to the check's id) with the
// status `pending`, and queued. One worker per process takes the checks one at a time (OCR is
// heavy and the engine is one tesseract worker) and runs `verifyDocument`. `verified` and
// `rejected` settle the check: the sealed document is deleted and only the outcome, the reasons,
// the MRZ summary (no name, no birth date) and the document's SHA-256 remain. `manual_review`
// keeps the document sealed until an operator settles it (`lamis identity settle`). Every result
// is audited in the user's organisations.
//
// A worker claims a check before running it; a claim older than `CLAIM_TIMEOUT_MS` (a process
// that died mid-check) may be taken again. Pending checks are looked for at start and every
// `sweepEveryMs`, so checks of a stopped process, or of one whose storage failed for a moment,
// are run by whichever instance looks next.
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../platform/db/database.ts';
import type { Envelope } from '../../platform/crypto/index.ts';
import { newId } from '../../platform/ids.ts';
import { documentHash, verifyDocument, type DocumentSummary, type DocumentType, type OcrEngine } from './identity/index.ts';
import { appendAudit, type Actor } from '../audit/audit.ts';
import type { IdentityCheckRow, IdentityStatus } from './identity-checks.table.ts';
import type { Users } from '../users/users.ts';

export const CLAIM_TIMEOUT_MS = 10 * 60_000;
const DEFAULT_SWEEP_EVERY_MS = 5 * 60_000;

export interface StoredReason {
  code: string;
  field?: string;
  message: string;
}

export interface IdentityCheckView {
  id: string;
  status: IdentityStatus;
  submitted_at: string;
  checked_at: string | null;
  settled_at: string | null;
  settled_by: 'automatic' | 'operator' | null;
  document_type: DocumentType;
  document_sha256: string;
  reasons: StoredReason[];
  document: DocumentSummary | null;
}

export type SubmitResult = { status: 'submitted'; check: IdentityCheckView } | { status: 'exists'; check: IdentityCheckView };

export type SettleResult =
  | { status: 'settled'; check: IdentityCheckView }
  | { status: 'not_found' }
  /** The latest check is already verified or rejected. */
  | { status: 'already_settled'; check: IdentityCheckView };

export interface IdentityChecksOptions {
  database: Database;
  envelope: Envelope;
  users: Users;
  /** Needed to run checks; operator commands that only settle and read go without. */
  ocr?: OcrEngine;
  logger?: FastifyBaseLogger;
  clock?: () => number;
  sweepEveryMs?: number;
}

const contextOf = (checkId: string) => `accounts.identity:${checkId}`;

export function checkView(row: IdentityCheckRow): IdentityCheckView {
  return {
    id: row.id,
    status: row.status,
    submitted_at: row.created_at,
    checked_at: row.checked_at,
    settled_at: row.settled_at,
    settled_by: row.settled_by,
    document_type: row.document_type,
    document_sha256: row.document_sha256,
    reasons: JSON.parse(row.reasons) as StoredReason[],
    document: row.document_summary === null ? null : (JSON.parse(row.document_summary) as DocumentSummary),
  };
}

export class IdentityChecks {
  readonly #database: Database;
  readonly #envelope: Envelope;
  readonly #users: Users;
  readonly #ocr: OcrEngine | undefined;
  readonly #logger: FastifyBaseLogger | undefined;
  readonly #clock: () => number;
  readonly #sweepEveryMs: number;
  readonly #queue: string[] = [];
  #working: Promise<void> | null = null;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(options: IdentityChecksOptions) {
    this.#database = options.database;
    this.#envelope = options.envelope;
    this.#users = options.users;
    this.#ocr = options.ocr;
    this.#logger = options.logger;
    this.#clock = options.clock ?? Date.now;
    this.#sweepEveryMs = options.sweepEveryMs ?? DEFAULT_SWEEP_EVERY_MS;
  }

  /** The user's open (or verified) check when there is one, else their newest, rejected one. */
  async latest(userId: string): Promise<IdentityCheckRow | undefined> {
    const query = this.#database.db.selectFrom('identity_checks').selectAll().where('user_id', '=', userId);
    return (await query.where('status', '<>', 'rejected').executeTakeFirst())
      ?? query.orderBy('created_at', 'desc').orderBy('id', 'desc').executeTakeFirst();
  }

  async status(userId: string): Promise<IdentityStatus | null> {
    return (await this.latest(userId))?.status ?? null;
  }

  /** Stores the document sealed and queues its check; refused while a check is open or verified. */
  async submit(userId: string, bytes: Buffer, type: DocumentType): Promise<SubmitResult> {
    const current = await this.latest(userId);
    if (current && current.status !== 'rejected') return { status: 'exists', check: checkView(current) };
    const id = newId('idc');
    const row: IdentityCheckRow = {
      id,
      user_id: userId,
      status: 'pending',
      document_sealed: this.#envelope.seal(bytes, contextOf(id)),
      document_type: type,
      document_sha256: documentHash(bytes),
      reasons: '[]',
      document_summary: null,
      created_at: new Date(this.#clock()).toISOString(),
      started_at: null,
      checked_at: null,
      settled_at: null,
      settled_by: null,
    };
    try {
      await this.#database.db.insertInto('identity_checks').values(row).execute();
    } catch (error) {
      // Another upload of the same user got in first: the unique index keeps one open check.
      const other = await this.latest(userId);
      if (other && other.status !== 'rejected') return { status: 'exists', check: checkView(other) };
      throw error;
    }
    this.#enqueue(id);
    return { status: 'submitted', check: checkView(row) };
  }

  /** Starts running checks: the pending ones now, then every sweep. */
  start(): void {
    this.#sweep();
    this.#timer = setInterval(() => this.#sweep(), this.#sweepEveryMs);
    this.#timer.unref();
  }

  /** The checks awaiting an operator, oldest first. */
  awaitingReview(): Promise<IdentityCheckRow[]> {
    return this.#database.db.selectFrom('identity_checks').selectAll().where('status', '=', 'manual_review').orderBy('created_at').orderBy('id').execute();
  }

  /** The uploaded document of a check still holding one (for an operator's review). */
  document(row: IdentityCheckRow): Buffer | null {
    return row.document_sealed === null ? null : this.#envelope.open(row.document_sealed, contextOf(row.id));
  }

  /** An operator's decision on the user's open check (pending or in manual review). */
  async settle(userId: string, outcome: 'verified' | 'rejected', reason: string): Promise<SettleResult> {
    const current = await this.latest(userId);
    if (!current) return { status: 'not_found' };
    if (current.status === 'verified' || current.status === 'rejected') return { status: 'already_settled', check: checkView(current) };
    const reasons: StoredReason[] = [...(JSON.parse(current.reasons) as StoredReason[]), { code: 'operator_decision', message: reason }];
    const settled = await this.#record(current, { status: outcome, reasons, summary: current.document_summary, settledBy: 'operator', actor: 'operator' });
    if (settled) return { status: 'settled', check: checkView(settled) };
    // The automatic check finished meanwhile: answer with what it decided.
    return this.settle(userId, outcome, reason);
  }

  /** Stops sweeping and waits for the check under way; queued ones wait for the next start. */
  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#timer);
    this.#queue.length = 0;
    await this.#working;
  }

  #sweep(): void {
    const staleBefore = new Date(this.#clock() - CLAIM_TIMEOUT_MS).toISOString();
    this.#database.db
      .selectFrom('identity_checks')
      .select('id')
      .where('status', '=', 'pending')
      .where((eb) => eb.or([eb('started_at', 'is', null), eb('started_at', '<', staleBefore)]))
      .orderBy('created_at')
      .execute()
      .then((rows) => rows.forEach((row) => this.#enqueue(row.id)))
      .catch((error: unknown) => this.#logger?.error({ err: error }, 'pending identity checks not read'));
  }

  #enqueue(id: string): void {
    if (this.#closed || this.#queue.includes(id)) return;
    this.#queue.push(id);
    this.#working ??= this.#drain().finally(() => {
      this.#working = null;
    });
  }

  async #drain(): Promise<void> {
    for (let id = this.#queue.shift(); id !== undefined; id = this.#queue.shift()) {
      try {
        await this.#run(id);
      } catch (error) {
        // Left pending: the sweep after the claim times out tries again.
        this.#logger?.error({ err: error, check_id: id }, 'identity check failed');
      }
    }
  }

  async #run(id: string): Promise<void> {
    if (!this.#ocr) throw new Error('identity checks cannot run without an OCR engine');
    const now = this.#clock();
    const claimed = await this.#database.db
      .updateTable('identity_checks')
      .set({ started_at: new Date(now).toISOString() })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where((eb) => eb.or([eb('started_at', 'is', null), eb('started_at', '<', new Date(now - CLAIM_TIMEOUT_MS).toISOString())]))
      .returningAll()
      .executeTakeFirst();
    if (!claimed?.document_sealed) return;
    const user = await this.#users.get(claimed.user_id);
    if (!user) return;
    const bytes = this.#envelope.open(claimed.document_sealed, contextOf(id));
    const result = await verifyDocument(bytes, { accountName: user.full_name, now: new Date(this.#clock()), ocr: this.#ocr });
    await this.#record(claimed, {
      status: result.outcome,
      reasons: result.reasons,
      summary: result.document === null ? null : JSON.stringify(result.document),
      settledBy: result.outcome === 'manual_review' ? null : 'automatic',
      actor: `user:${user.id}`,
    });
    this.#logger?.info({ check_id: id, outcome: result.outcome, reasons: result.reasons.map((r) => r.code) }, 'identity check done');
  }

  /**
   * Writes a result on a check that is still open, deleting the document when it settles, and
   * audits it in each of the user's organisations; null when the check was settled meanwhile.
   */
  async #record(
    row: IdentityCheckRow,
    result: { status: IdentityStatus; reasons: readonly StoredReason[]; summary: string | null; settledBy: 'automatic' | 'operator' | null; actor: Actor },
  ): Promise<IdentityCheckRow | null> {
    const at = new Date(this.#clock()).toISOString();
    const settles = result.settledBy !== null;
    return this.#database.db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('identity_checks')
        .set({
          status: result.status,
          reasons: JSON.stringify(result.reasons),
          document_summary: result.summary,
          checked_at: row.checked_at ?? at,
          ...(settles ? { settled_at: at, settled_by: result.settledBy, document_sealed: null } : {}),
        })
        .where('id', '=', row.id)
        .where('status', '=', row.status)
        .returningAll()
        .executeTakeFirst();
      if (!updated) return null;
      const orgs = await trx.selectFrom('memberships').select('org_id').where('user_id', '=', row.user_id).execute();
      for (const { org_id } of orgs) {
        await appendAudit(trx, {
          orgId: org_id,
          actor: result.actor,
          action: 'identity.result',
          target: row.user_id,
          detail: { check_id: row.id, outcome: result.status, decided_by: result.settledBy ?? 'automatic', reasons: result.reasons.map((r) => r.code) },
          at,
        });
      }
      return updated;
    });
  }
}
