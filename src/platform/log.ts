// The service's log: pino on standard output, as JSON lines (for log collectors) or as readable
// lines (for a person at a terminal). Standard output is written asynchronously, so a reader
// that stops reading never blocks the service or its exit; a reader that goes away (EPIPE) ends
// the logging, not the service.
import { pino, type Logger, type LoggerOptions } from 'pino';

/** `auto`: readable lines on a terminal, JSON lines otherwise. */
export type LogFormat = 'auto' | 'json' | 'pretty';

export interface ServiceLog {
  logger: Logger;
  /** Whether lines are for a person (LOG_FORMAT pretty, or auto on a terminal). */
  pretty: boolean;
  /** Writes text as it is, in order with the log lines (the start-up banner). */
  print(text: string): void;
  /** Resolves once everything written so far has reached the reader (or the reader is gone). */
  drained(): Promise<void>;
}

export function openLog(options: LoggerOptions, format: LogFormat): ServiceLog {
  const out = process.stdout;
  let gone = false;
  out.on('error', () => (gone = true));
  const write = (text: string) => {
    if (!gone) out.write(text);
  };
  const pretty = format === 'pretty' || (format === 'auto' && out.isTTY === true);
  const logger = pino(options, { write: pretty ? (line: string) => write(prettyLine(line)) : write });
  return {
    logger,
    pretty,
    print: (text) => write(`${text}\n`),
    drained: () => new Promise((resolve) => (gone ? resolve() : out.write('', () => resolve()))),
  };
}

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
/** Fields every line has, shown in their own places. */
const FRAME = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'err']);

/** One pino JSON line as `HH:MM:SS LEVEL message key=value ...`, an error's stack indented below. */
function prettyLine(line: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line);
  } catch {
    return line;
  }
  const time = new Date(entry.time as number).toTimeString().slice(0, 8);
  const level = (LEVELS[entry.level as number] ?? String(entry.level)).padEnd(5);
  const fields = Object.entries(entry)
    .filter(([key]) => !FRAME.has(key))
    .map(([key, value]) => `${key}=${typeof value === 'string' && /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value)}`);
  const err = entry.err as { type?: string; message?: string; stack?: string } | undefined;
  const stack = err ? `\n    ${(err.stack ?? `${err.type}: ${err.message}`).split('\n').join('\n    ')}` : '';
  return `${time} ${level} ${entry.msg ?? ''}${fields.length ? `  ${fields.join(' ')}` : ''}${stack}\n`;
}
