// The external conformance corpora and data files live beside the project in `../shared/` (never
// copied in). A user's checkout has no such folder: tests then skip with this message.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const sharedRoot = process.env.LAMIS_SHARED_DIR ?? path.resolve(projectRoot, '..', 'shared');

/** Absolute path of a file under ../shared, or a skip reason when it is not there. */
export function sharedFile(relative: string): { path: string; skip: false } | { path: undefined; skip: string } {
  const full = path.join(sharedRoot, relative);
  if (existsSync(full)) return { path: full, skip: false };
  return { path: undefined, skip: `conformance data not found: ${full} (set LAMIS_SHARED_DIR to the shared folder to run this)` };
}
