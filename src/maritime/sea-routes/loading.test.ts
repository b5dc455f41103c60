// Loading aside: the sea-lane graph and the land index are built on a worker thread and handed
// over, so the thread that serves routes builds neither (a first route no longer holds it for the
// land index's build).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { keepSeaGraph, loadSeaGraph, type SeaGraphResult } from './graph.ts';
import { keepLand, loadLand, type LandResult } from './land.ts';
import { loadSeaGraphAside } from './loading.ts';
import { routeBetween } from './route.ts';

test('the graph and the land index come from the loading thread, whole, and routes use them', async () => {
  const graph = await loadSeaGraphAside();
  assert.ok(graph.ok, 'the graph was built');
  // Nothing here built either: what the loading thread handed over is what is kept.
  const otherGraph: SeaGraphResult = { ok: false, error: 'network_unavailable', message: 'not handed over' };
  assert.equal(keepSeaGraph(otherGraph), graph);
  const otherLand: LandResult = { ok: false, message: 'not handed over' };
  const land = keepLand(otherLand);
  assert.notEqual(land, otherLand, 'a land index was handed over');
  assert.equal(loadSeaGraph(), graph);
  assert.equal(loadLand(), land);
  assert.ok(land.ok);
  const { edgeCount, x1, y1, x2, y2, cellStart, cellEdges } = land.land;
  assert.ok(edgeCount > 100_000, `${edgeCount} coastline edges`);
  for (const coordinates of [x1, y1, x2, y2]) assert.equal(coordinates.length, edgeCount);
  assert.equal(cellStart.at(-1), cellEdges.length);
  // A route between two ports joins the lanes with what was handed over.
  const route = routeBetween({ lat: 51.95, lon: 4.05 }, { lat: 53.54, lon: 9.97 });
  assert.ok(route.ok, JSON.stringify(route));
});
