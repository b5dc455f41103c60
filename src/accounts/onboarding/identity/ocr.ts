// One tesseract.js worker for reading machine-readable zones, shared by every identity check of
// the process. Everything it needs is on disk: the WebAssembly core comes from tesseract.js-core
// and the English LSTM model from @tesseract.js-data/eng; nothing is fetched, nothing is cached.

import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import Tesseract from 'tesseract.js';

const require = createRequire(import.meta.url);

/** The characters an ICAO 9303 MRZ is made of; the OCR engine may output nothing else. */
export const MRZ_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<';

/** Default limit for one recognition, worker start included: the whole check should take < 60 s. */
export const DEFAULT_OCR_TIMEOUT_MS = 30_000;

export interface OcrRegion {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface OcrEngineOptions {
  /** Longest one recognition may take, starting the worker included, queue time not. */
  timeoutMs?: number;
}

export class OcrTimeoutError extends Error {
  override name = 'OcrTimeoutError';
}

export class OcrClosedError extends Error {
  override name = 'OcrClosedError';
}

/**
 * The integer LSTM model ("best_int", 2.9 MB) shipped in the package. The package's own entry
 * point names the larger legacy + LSTM set, which the LSTM-only engine does not need. Setting
 * the path is what keeps tesseract.js off its CDN default.
 */
function bundledLanguagePath(): string {
  return join(dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');
}

async function startWorker(): Promise<Tesseract.Worker> {
  const worker = await Tesseract.createWorker(
    'eng',
    Tesseract.OEM.LSTM_ONLY,
    {
      langPath: bundledLanguagePath(),
      gzip: true,
      // 'none': never read or write a traineddata copy in the working directory.
      cacheMethod: 'none',
      // Without a handler tesseract.js rethrows a failed job inside its message listener, which
      // would crash the process; the job's own promise still rejects.
      errorHandler: () => {},
    },
    // MRZ text is not made of English words: the dictionaries only pull readings towards them.
    { load_system_dawg: '0', load_freq_dawg: '0' },
  );
  try {
    await worker.setParameters({
      tessedit_char_whitelist: MRZ_ALPHABET,
      tessedit_pageseg_mode: Tesseract.PSM.AUTO,
      // Generated and scanned images carry no resolution; a fixed value keeps tesseract from
      // estimating one (and printing that it did) for every image.
      user_defined_dpi: '300',
    });
  } catch (error) {
    await worker.terminate();
    throw error;
  }
  return worker;
}

/**
 * Owns one tesseract worker: started on first use, reused by later calls, replaced after a
 * failure or a timeout (a timed-out worker may still be busy), released by `close()`. Calls run
 * one after another, so each timeout measures its own recognition only.
 */
export class OcrEngine {
  readonly timeoutMs: number;
  #worker: Promise<Tesseract.Worker> | null = null;
  #queue: Promise<unknown> = Promise.resolve();
  #stopping = new Set<Promise<void>>();
  #closed = false;

  constructor(options: OcrEngineOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_OCR_TIMEOUT_MS;
  }

  /** Text read from a PNG or JPEG image (optionally one region of it), MRZ characters only. */
  recognize(image: Uint8Array, region?: OcrRegion): Promise<string> {
    const job = this.#queue.then(() => this.#run(image, region));
    this.#queue = job.catch(() => undefined);
    return job;
  }

  /** Lets queued recognitions finish, then stops the worker(s); later calls are refused. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#queue;
    this.#retire();
    await Promise.all(this.#stopping);
  }

  async #run(image: Uint8Array, region: OcrRegion | undefined): Promise<string> {
    if (this.#closed) throw new OcrClosedError('the OCR engine is closed');
    let expired: OcrTimeoutError | null = null;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        expired = new OcrTimeoutError(`OCR did not finish within ${this.timeoutMs} ms`);
        reject(expired);
      }, this.timeoutMs);
    });
    const recognition = (async () => {
      const worker = await this.#startedWorker();
      // Timed out while the worker started: it is being stopped, and a job sent to a stopped
      // worker fails inside tesseract.js where nobody can catch it.
      if (expired) throw expired;
      const buffer = Buffer.from(image.buffer, image.byteOffset, image.byteLength);
      const result = await worker.recognize(buffer, region ? { rectangle: region } : {});
      return result.data.text;
    })();
    try {
      return await Promise.race([recognition, timeout]);
    } catch (error) {
      recognition.catch(() => {});
      // After a timeout or a failure the worker may be busy or broken: the next call starts anew.
      this.#retire();
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  #startedWorker(): Promise<Tesseract.Worker> {
    if (this.#worker === null) {
      const started = startWorker();
      // A failed start is not kept: the next call tries again.
      started.catch(() => {
        if (this.#worker === started) this.#worker = null;
      });
      this.#worker = started;
    }
    return this.#worker;
  }

  /**
   * Stops the current worker once it has started, without waiting for that: a worker stuck while
   * starting must not hold up the caller. `close()` waits for every stop.
   */
  #retire(): void {
    const worker = this.#worker;
    this.#worker = null;
    if (worker === null) return;
    // A worker that never started has nothing to stop.
    const stopping = worker.then((started) => started.terminate()).then(
      () => undefined,
      () => undefined,
    );
    this.#stopping.add(stopping);
    void stopping.then(() => this.#stopping.delete(stopping));
  }
}
