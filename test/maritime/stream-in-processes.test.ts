// The AIS stream's whole suite (stream.test.ts) again, with its streams served by two stream
// processes: connecting both ways, plans and caps, every filter, pacing, fan-out (every update once,
// in order per vessel), errors, heartbeats, metrics and shutdown behave as on the serving thread.
process.env.LAMIS_TEST_STREAM_PROCESSES = '2';
await import('./stream.test.ts');
