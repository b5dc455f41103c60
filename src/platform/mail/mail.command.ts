// `lamis mail list` and `lamis mail show ID`: what LAMIS sent or kept, read from the outbox table
// of the configured storage. The outbox is the platform's own table, so the command applies the
// platform's migrations (and only those) before reading.
import { UsageError, type Command } from '../command.ts';
import { openDatabase } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import { DEFAULT_LIST_LIMIT, Outbox, type OutboxMessage, type OutboxSummary } from './outbox.ts';
import { platformMigrations } from '../migrations/index.ts';

const MAX_LIST_LIMIT = 1000;

function listText(rows: OutboxSummary[]): string {
  const header = ['ID', 'CREATED', 'TRANSPORT', 'STATUS', 'PURPOSE', 'TO', 'SUBJECT'];
  const table = [header, ...rows.map((r) => [r.id, r.created_at, r.transport, r.status, r.purpose, r.to, r.subject])];
  const widths = header.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  return table.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ')).join('\n');
}

function messageText(message: OutboxMessage): string {
  const fields: [string, string | null][] = [
    ['ID', message.id],
    ['To', message.to],
    ['Subject', message.subject],
    ['Purpose', message.purpose],
    ['Transport', message.transport],
    ['Status', message.status],
    ['Error', message.error],
    ['Created', message.created_at],
    ['Sent', message.sent_at],
  ];
  const lines = fields.filter(([, value]) => value !== null).map(([name, value]) => `${`${name}:`.padEnd(11)}${value}`);
  lines.push('');
  if (message.text === null) {
    lines.push('(body not kept: the SMTP server accepted this message, and its links are for the recipient only)');
  } else {
    lines.push(message.text);
    if (message.html !== null) lines.push('', '--- HTML ---', message.html);
  }
  return lines.join('\n');
}

function listLimit(raw: string | boolean | undefined): number {
  if (raw === undefined) return DEFAULT_LIST_LIMIT;
  const limit = Number(raw);
  if (typeof raw !== 'string' || !/^\d+$/.test(raw) || limit < 1 || limit > MAX_LIST_LIMIT) {
    throw new UsageError(`--limit must be a whole number from 1 to ${MAX_LIST_LIMIT} (got "${raw}")`);
  }
  return limit;
}

export const mailCommand: Command = {
  args: 'list | show ID',
  usesSettings: true,
  options: {
    json: { type: 'boolean', description: 'Print JSON (list: an array of messages without bodies; show: the message)' },
    limit: { type: 'string', description: `list: how many of the newest messages to print (default ${DEFAULT_LIST_LIMIT})` },
  },
  async run({ config, positionals, values }) {
    const [action, ...rest] = positionals;
    if (action !== 'list' && action !== 'show') {
      throw new UsageError(action === undefined ? 'give a subcommand: list or show ID' : `unknown subcommand "${action}": use list or show ID`);
    }
    if (action === 'list' && rest.length > 0) throw new UsageError('list takes no arguments');
    if (action === 'show' && rest.length !== 1) throw new UsageError('show takes the ID of one message');
    const limit = listLimit(values.limit);

    const database = openDatabase(config);
    try {
      await migrate(database.db, database.dialect, platformMigrations);
      const outbox = new Outbox(database);
      if (action === 'list') {
        const rows = await outbox.list(limit);
        if (values.json) console.log(JSON.stringify(rows));
        else console.log(rows.length > 0 ? listText(rows) : `The outbox is empty (${database.dialect}: ${database.location}).`);
        return 0;
      }
      const id = rest[0]!;
      const message = await outbox.get(id);
      if (!message) {
        console.error(`lamis mail: no message "${id}" in the outbox (${database.dialect}: ${database.location})`);
        return 1;
      }
      console.log(values.json ? JSON.stringify(message) : messageText(message));
      return 0;
    } finally {
      await database.close();
    }
  },
};
