// `lamis decode [FILE]`: NMEA lines from a file or standard input to one JSON object per decoded
// message (JSON Lines) on standard output, like gpsdecode; a summary of rejected lines on stderr.
import { createReadStream } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { Command } from '../../platform/command.ts';
import { AisPipeline } from './pipeline.ts';

export const decodeCommand: Command = {
  args: '[FILE]',
  usesSettings: false,
  options: {
    raw: { type: 'boolean', description: 'Print the transmitted integers (gpsd units) instead of degrees, knots and metres' },
  },
  async run({ values, positionals }) {
    const [file] = positionals;
    const input = file && file !== '-' ? createReadStream(file) : process.stdin;
    const opened = new Promise<void>((resolve, reject) => {
      if (input === process.stdin) return resolve();
      input.once('open', () => resolve());
      input.once('error', reject);
    });
    try {
      await opened;
    } catch (error) {
      console.error(`lamis decode: cannot read ${file}: ${(error as Error).message}`);
      return 1;
    }
    // A reader that stops early (`| head`) is not an error.
    process.stdout.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(0);
      throw error;
    });
    const pipeline = new AisPipeline();
    const view = values.raw ? 'raw' : 'scaled';
    for await (const line of createInterface({ input, crlfDelay: Infinity })) {
      const decoded = pipeline.push(line);
      if (decoded && !process.stdout.write(`${JSON.stringify(decoded.message[view])}\n`)) {
        await once(process.stdout, 'drain');
      }
    }
    const { lines, messages, pending, rejected } = pipeline.counts;
    const reasons = Object.entries(rejected).filter(([, n]) => n > 0).map(([reason, n]) => `${reason} ${n}`);
    console.error(`lamis decode: ${lines} lines, ${messages} messages` +
      `${reasons.length ? `; rejected: ${reasons.join(', ')}` : '; nothing rejected'}` +
      `${pending ? `; ${pending} lines in incomplete groups at end of input` : ''}`);
    return 0;
  },
};
