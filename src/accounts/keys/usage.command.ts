// `lamis usage --org ORG [--days N]`: an organisation's requests and streams per key and UTC day.
import { UsageError, type Command } from '../../platform/command.ts';
import { fail, required, table, withStorage } from '../command-support.ts';
import { Organisations } from '../organisations/organisations.ts';
import { DEFAULT_USAGE_DAYS, listUsage, MAX_USAGE_DAYS, utcDay } from './usage.ts';

const MS_PER_DAY = 86_400_000;

export const usageCommand: Command = {
  args: '--org ORG [--days N]',
  usesSettings: true,
  options: {
    org: { type: 'string', description: 'The organisation id' },
    days: { type: 'string', description: `How many UTC days back, today included (default ${DEFAULT_USAGE_DAYS}, at most ${MAX_USAGE_DAYS})` },
    json: { type: 'boolean', description: 'Print one JSON object' },
  },
  async run({ config, positionals, values }) {
    if (positionals.length > 0) throw new UsageError('usage takes no arguments, only options');
    const orgId = required(values, 'org');
    const days = values.days === undefined ? DEFAULT_USAGE_DAYS : /^\d+$/.test(String(values.days)) ? Number(values.days) : NaN;
    if (!(days >= 1 && days <= MAX_USAGE_DAYS)) {
      throw new UsageError(`--days must be a whole number from 1 to ${MAX_USAGE_DAYS} (got "${values.days}")`);
    }
    const now = Date.now();
    const from = utcDay(now - (days - 1) * MS_PER_DAY);
    const to = utcDay(now);
    const rows = await withStorage(config, async (database) =>
      (await new Organisations(database).get(orgId)) ? listUsage(database, orgId, from, to) : undefined);
    if (!rows) return fail('usage', `no organisation "${orgId}"`);
    if (values.json) console.log(JSON.stringify({ org: orgId, from, to, data: rows }));
    else if (rows.length === 0) console.log(`No usage recorded for ${orgId} from ${from} to ${to}.`);
    else console.log(table(['DAY', 'KEY', 'REQUESTS', 'STREAMS'], rows.map((r) => [r.day, r.key_id, String(r.requests), String(r.streams)])));
    return 0;
  },
};
