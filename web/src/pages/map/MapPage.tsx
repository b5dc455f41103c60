// The live vessel map: positions from the AIS stream on LAMIS's MapLibre base map. The visible area
// (with a margin) is the subscription's box, sent again when the map stops moving; vessel types,
// flags and MMSI/IMO numbers narrow it further. Click a vessel for its details and track, or find
// one (or a port) by name, MMSI or IMO number. A plan without streams (Starter) sees the vessel
// search's positions for the area instead, refreshed every SNAPSHOT_EVERY_MS.
import type { PositionUpdate, Track, Vessel, VesselSearchQuery } from '@lamis/sdk';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { positionFrameData } from '../../../../common/position-frame.ts';
import { PLANS } from '../../../../common/plans.ts';
import { api } from '../../api/client.ts';
import { data } from '../../api/data-key.ts';
import { errorMessage } from '../../api/errors.ts';
import { useMembership } from '../../api/session.ts';
import { capitalise, formatNumber } from '../../app/format.ts';
import { useInterval } from '../../app/hooks.ts';
import type { PageProps } from '../../app/router.tsx';
import { usePageTitle } from '../../app/router.tsx';
import { Alert, Button, StatusBadge, type Tone } from '../../app/ui/basics.tsx';
import { Checkbox, TextField } from '../../app/ui/forms.tsx';
import { boxOfBounds, longitudeSpan, sameBox, type Box, type Bounds } from './area.ts';
import { CATEGORIES, categoryStyle, type VesselCategory } from './categories.ts';
import { parseFlags, parseIdentifiers } from './identifiers.ts';
import { LiveStream, PLAN_PAGE, refusalMessage, type StreamStatus } from './live-stream.ts';
import { MapSearch, type SearchHit } from './MapSearch.tsx';
import { VesselMap } from './vessel-map.ts';
import { VesselPanel } from './VesselPanel.tsx';
import { matchesFilter, RateMeter, subscribeFilters, VesselStore, type MapFilter } from './vessel-store.ts';
import './map.css';

/** How long the map must rest before the new area is subscribed. */
const RESUBSCRIBE_AFTER_MS = 400;
/** The subscribed box reaches this far (a fraction of the view) beyond each edge, so short pans need no new box. */
const BOX_MARGIN = 0.25;
/** Positions older than this leave the map, as they leave the server's live index. */
const STALE_MS = 30 * 60_000;
/** The vessel search fills a new area at once (moored ships report only every 3 minutes), at most this often. */
const SEED_EVERY_MS = 15_000;
/** Without the stream, the area's vessels are fetched again this often (a Starter key has 10 to 100 requests a minute). */
const SNAPSHOT_EVERY_MS = 30_000;
/** Pages of 100 vessels a snapshot takes at most. */
const SNAPSHOT_PAGES = 2;

/** Over an ocean or more, one position per vessel this often is plenty (the stream's default is 5 s). */
const WIDE_UPDATE_INTERVAL_SEC = 15;
const WIDE_AREA_DEGREES = 60;

function wideArea(box: Box | null): boolean {
  return !box || longitudeSpan(box) > WIDE_AREA_DEGREES;
}

interface Stats {
  total: number;
  drawn: number;
  rate: number;
  held: number;
}

function initialView(query: URLSearchParams): { center: [number, number]; zoom: number } {
  const lat = Number(query.get('lat'));
  const lon = Number(query.get('lon'));
  const zoom = Number(query.get('zoom'));
  const given = query.has('lat') && query.has('lon') && Number.isFinite(lat) && Number.isFinite(lon);
  return { center: given ? [lon, Math.max(-85, Math.min(85, lat))] : [10, 25], zoom: Number.isFinite(zoom) && query.has('zoom') ? Math.max(0, Math.min(16, zoom)) : 1 };
}

/** Keeps the view in the address (without a navigation), so a reload or a shared link shows the same area. */
function rememberView(view: { lat: number; lon: number; zoom: number }): void {
  const url = new URL(window.location.href);
  url.searchParams.set('lat', view.lat.toFixed(4));
  url.searchParams.set('lon', view.lon.toFixed(4));
  url.searchParams.set('zoom', view.zoom.toFixed(2));
  window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
}

export default function MapPage({ query }: PageProps) {
  usePageTitle('Live map');
  // On a phone the filters start folded, so the map shows without scrolling.
  const [wideScreen] = useState(() => window.matchMedia('(min-width: 761px)').matches);
  const stageRef = useRef<HTMLDivElement>(null);
  const store = useMemo(() => new VesselStore(), []);
  const meter = useMemo(() => new RateMeter(5), []);
  const mapRef = useRef<VesselMap | null>(null);
  const membership = useMembership();
  const streamRef = useRef<LiveStream | null>(null);

  const [types, setTypes] = useState<ReadonlySet<VesselCategory>>(() => new Set(CATEGORIES.map((style) => style.category)));
  const [flagsText, setFlagsText] = useState(query.get('flag') ?? '');
  const [idsText, setIdsText] = useState(query.get('vessel') ?? '');
  const [areaOnly, setAreaOnly] = useState(true);
  const [box, setBox] = useState<Box | null>(null);
  /** Nothing is subscribed before the map knows its size, and so the area it shows. */
  const [viewKnown, setViewKnown] = useState(false);
  const [status, setStatus] = useState<StreamStatus>({ phase: 'connecting', message: null, fixAt: null, plan: null, retryAt: null });
  const statusRef = useRef(status);
  statusRef.current = status;
  const [subscribeError, setSubscribeError] = useState<string | null>(null);
  const [basemapError, setBasemapError] = useState<string | null>(null);
  /** When the last snapshot of the area came (plans without streams). */
  const [snapshotAt, setSnapshotAt] = useState<number | null>(null);
  const [stats, setStats] = useState<Stats>({ total: 0, drawn: 0, rate: 0, held: 0 });
  const [paused, setPaused] = useState(false);
  // A link to one vessel (`?vessel=MMSI`, from the home page, the alerts and the ports pages) opens its details at once.
  const [linked] = useState<number | null>(() => {
    const given = parseIdentifiers(query.get('vessel') ?? '');
    return given.mmsi.length === 1 && given.imo.length === 0 ? given.mmsi[0]! : null;
  });
  const [selected, setSelected] = useState<number | null>(linked);
  // It also shows where the vessel is, at harbour zoom, once its details are in, unless the link gives the view.
  const showLinked = useRef(linked !== null && !query.has('lat'));
  const detailsIn = (vessel: Vessel) => {
    if (!showLinked.current || vessel.mmsi !== linked || vessel.position === null) return;
    showLinked.current = false;
    mapRef.current?.jumpTo(vessel.position.lat, vessel.position.lon, 11);
  };
  const [nearby, setNearby] = useState<{ mmsi: number; name: string | null; category: VesselCategory }[] | null>(null);

  const flags = useMemo(() => parseFlags(flagsText), [flagsText]);
  const ids = useMemo(() => parseIdentifiers(idsText), [idsText]);
  const allTypes = types.size === CATEGORIES.length;
  const filter: MapFilter = useMemo(() => ({
    vesselTypes: allTypes ? new Set() : types,
    flags: new Set(flags.errors.length ? [] : flags.flags),
    mmsi: new Set(ids.errors.length ? [] : ids.mmsi),
    imo: new Set(ids.errors.length ? [] : ids.imo),
    box: areaOnly ? box : null,
  }), [types, allTypes, flags, ids, areaOnly, box]);
  // What arrives is checked against the filter without its box: positions of vessels just outside
  // the box come in while it is being replaced, and the margin keeps them useful.
  const filterRef = useRef(filter);
  filterRef.current = filter;
  const noTypeChosen = types.size === 0;
  const noTypeRef = useRef(noTypeChosen);
  noTypeRef.current = noTypeChosen;

  // The map and the stream live as long as the page.
  useEffect(() => {
    const stage = stageRef.current!;
    let boxTimer: ReturnType<typeof setTimeout> | undefined;
    let disposed = false;
    const showArea = (bounds: Bounds) => {
      setBox((previous) => {
        const next = boxOfBounds(bounds, BOX_MARGIN);
        return sameBox(previous, next) ? previous : next;
      });
      setViewKnown(true);
    };
    let first = true;
    const map = new VesselMap(stage, store, {
      ...initialView(query),
      onView(view) {
        clearTimeout(boxTimer);
        if (first) {
          first = false;
          showArea(view.bounds);
          return;
        }
        boxTimer = setTimeout(() => {
          rememberView(view);
          showArea(view.bounds);
        }, RESUBSCRIBE_AFTER_MS);
      },
      onSelect: setSelected,
      onError: (error) => setBasemapError(errorMessage(error)),
    });
    mapRef.current = map;
    const stream = new LiveStream({
      position(update) {
        meter.record(Date.now());
        if (noTypeRef.current) return;
        const current = filterRef.current;
        if (!matchesFilter({ category: update.vessel_type, flag: update.flag, mmsi: update.mmsi, imo: update.imo, lat: update.lat, lon: update.lon }, { ...current, box: null })) return;
        store.applyPosition(update);
        map.dataChanged();
      },
      static(update) {
        store.applyStatic(update);
        map.dataChanged();
      },
      status: setStatus,
      subscribed() {
        setSubscribeError(null);
      },
    });
    streamRef.current = stream;
    // A plan without streams is known from the organisation: no connection is tried. (The stream
    // refuses one anyway, with close code 4403, which ends in the same state.)
    const orgId = membership?.org_id;
    const plan = orgId ? api('GET /v3/organisations/{orgId}', { path: { orgId } }).then((org) => org.plan, () => null) : Promise.resolve(null);
    void plan.then((name) => {
      if (disposed) return;
      if (name && !PLANS[name].streams) {
        const { message, fixAt } = refusalMessage({ code: 4403, reason: '' });
        setStatus({ phase: 'not-in-plan', message, fixAt, plan: name, retryAt: null });
      } else {
        void stream.start();
      }
    });
    const expiry = setInterval(() => {
      if (store.expire(Date.now() - STALE_MS)) map.dataChanged();
    }, 60_000);
    return () => {
      disposed = true;
      clearTimeout(boxTimer);
      clearTimeout(seedTimer.current);
      clearInterval(expiry);
      void stream.stop();
      map.destroy();
      mapRef.current = null;
      streamRef.current = null;
    };
  }, []);

  // A new filter: subscribe to it, drop what it leaves out, and fill the area from the vessel search.
  const lastSeed = useRef(0);
  const seedTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    const stream = streamRef.current;
    if (!stream || !viewKnown) return;
    if (noTypeChosen) {
      store.clear();
      mapRef.current?.dataChanged();
      return;
    }
    store.retain(filter);
    mapRef.current?.dataChanged();
    stream.subscribe(subscribeFilters(filter, wideArea(filter.box) ? WIDE_UPDATE_INTERVAL_SEC : undefined)).then(() => setSubscribeError(null), (error: unknown) => {
      // A refused connection is reported by the status; only a refused filter is news here.
      if ((error as { name?: string }).name === 'LamisStreamError') setSubscribeError(errorMessage(error));
    });
    // The search costs a request: at most one every SEED_EVERY_MS, for the latest filter.
    clearTimeout(seedTimer.current);
    seedTimer.current = setTimeout(() => {
      lastSeed.current = Date.now();
      void seed(filter);
    }, Math.max(0, lastSeed.current + SEED_EVERY_MS - Date.now()));
  }, [filter, noTypeChosen, viewKnown]);

  // Without the stream, the area's vessels come from the search: at once, then every SNAPSHOT_EVERY_MS.
  const snapshots = status.phase === 'not-in-plan';
  useEffect(() => {
    if (snapshots && viewKnown && !noTypeRef.current) void seed(filterRef.current);
  }, [snapshots, viewKnown]);
  useInterval(() => {
    if (!noTypeRef.current) void seed(filterRef.current);
  }, SNAPSHOT_EVERY_MS, snapshots);

  async function seed(current: MapFilter): Promise<void> {
    if (streamRef.current === null || statusRef.current.phase === 'refused') return;
    const snapshot = statusRef.current.phase === 'not-in-plan';
    try {
      const found: PositionUpdate[] = [];
      if (current.mmsi.size > 0) {
        // Looked up one by one (the first few): the user wants these vessels, wherever they are.
        for (const mmsi of [...current.mmsi].slice(0, 5)) {
          const vessel = await data('GET /v3/maritime/vessels/{mmsi}', { path: { mmsi: String(mmsi) } }).catch(() => null);
          const position = vessel && positionFrameData(vessel);
          if (position) found.push(position);
        }
      } else {
        const area = current.box;
        const query: VesselSearchQuery = { limit: 100 };
        if (area) query.bbox = `${area.minLon},${area.minLat},${area.maxLon},${area.maxLat}`;
        if (current.vesselTypes.size === 1) query.category = [...current.vesselTypes][0]!;
        if (current.flags.size === 1) query.flag = [...current.flags][0]!;
        if (current.imo.size === 1) query.imo = String([...current.imo][0]);
        for (let page = 0; page < (snapshot ? SNAPSHOT_PAGES : 1); page++) {
          const answer = await data('GET /v3/maritime/vessels', { query });
          for (const vessel of answer.data) {
            const position = positionFrameData(vessel);
            if (position) found.push(position);
          }
          if (!answer.next_cursor) break;
          query.cursor = answer.next_cursor;
        }
      }
      const now = filterRef.current;
      let added = 0;
      for (const position of found) {
        if (noTypeRef.current || !matchesFilter({ category: position.vessel_type, flag: position.flag, mmsi: position.mmsi, imo: position.imo, lat: position.lat, lon: position.lon }, now)) continue;
        store.applyPosition(position);
        added++;
      }
      if (added) mapRef.current?.dataChanged();
      if (snapshot) setSnapshotAt(Date.now());
    } catch {
      // The stream fills the map anyway; the search only saves waiting for the next reports. A
      // snapshot is tried again at the next interval.
    }
  }

  useInterval(() => {
    const map = mapRef.current;
    const now = Date.now();
    setStats({ total: store.size, drawn: map?.drawnCount ?? 0, rate: meter.perSecond(now), held: store.held });
    if (nearby !== null && map) setNearby(map.nearest(12));
  }, 1000);

  useEffect(() => {
    mapRef.current?.setSelected(selected);
    if (selected === null) mapRef.current?.setTrack(null);
  }, [selected]);

  function chooseHit(hit: SearchHit) {
    if (hit.lat === null || hit.lon === null) return;
    if (hit.kind === 'vessel') {
      // Its details open even when the filters leave it off the map.
      setSelected(hit.mmsi);
      mapRef.current?.flyTo(hit.lat, hit.lon, Math.max(mapRef.current.map.getZoom(), 11));
    } else {
      mapRef.current?.flyTo(hit.lat, hit.lon, 11);
    }
  }

  function togglePause() {
    if (store.paused) {
      store.resume();
      mapRef.current?.dataChanged();
    } else {
      store.pause();
    }
    setPaused(store.paused);
  }

  function toggleType(category: VesselCategory, checked: boolean) {
    const next = new Set(types);
    if (checked) next.add(category);
    else next.delete(category);
    setTypes(next);
  }

  const [tone, label] = statusBadge(status, paused);
  return (
    <div class="map-page">
      <div class="map-side">
        <header class="map-header">
          <h1 tabIndex={-1} data-page-heading>Live map</h1>
          <div class="map-stream-status" role="status" aria-live="polite" data-stream-phase={status.phase}>
            <StatusBadge tone={tone}>{label}</StatusBadge>
            <span>
              {formatNumber(stats.total)} {stats.total === 1 ? 'vessel' : 'vessels'}, {formatNumber(stats.drawn)} in view
              {!snapshots && <> · {stats.rate.toFixed(1)} updates/s</>}
              {status.plan && <> · {capitalise(status.plan)} plan</>}
            </span>
          </div>
          {!snapshots && (
            <div class="map-actions">
              <Button size="small" onClick={togglePause} disabled={status.phase !== 'live' && !paused} aria-pressed={paused}>
                {paused ? `Resume${stats.held ? ` (${formatNumber(stats.held)} waiting)` : ''}` : 'Pause'}
              </Button>
            </div>
          )}
        </header>
        {status.phase === 'not-in-plan' && (
          <Alert tone="info" title="Vessel positions every 30 seconds">
            <p>{status.message}</p>
            {snapshotAt !== null && <p data-snapshot-at={snapshotAt}>Last refreshed at {new Date(snapshotAt).toLocaleTimeString('en-GB', { timeZone: 'UTC' })} UTC.</p>}
            <p><a href={PLAN_PAGE}>See the plans</a></p>
          </Alert>
        )}
        {status.message && status.phase !== 'not-in-plan' && (
          <Alert tone={status.phase === 'refused' ? 'error' : 'warning'} title={status.phase === 'refused' ? 'No live stream' : undefined}>
            <p>{status.message}</p>
            {status.phase === 'reconnecting' && status.retryAt && <p>Connecting again in {Math.max(1, Math.round((status.retryAt - Date.now()) / 1000))} s.</p>}
            {status.fixAt && <p><a href={status.fixAt}>{status.fixAt.startsWith('/settings/plan') ? 'See the plans' : 'Fix it in Settings'}</a></p>}
          </Alert>
        )}
        {subscribeError && <Alert tone="error" title="The stream refused the filter"><p>{subscribeError}</p></Alert>}
        {basemapError && <Alert tone="warning" title="Part of the map is missing"><p>{basemapError}</p></Alert>}

        <MapSearch store={store} onChoose={chooseHit} />

        <details class="map-filters" open={wideScreen}>
          <summary>Filters</summary>
          <Checkbox label="Only the area on the map" checked={areaOnly} onChecked={setAreaOnly}
            hint="Off: vessels anywhere that match the other filters (useful with an MMSI or IMO number)." />
          <fieldset class="map-types">
            <legend>Vessel types</legend>
            <div class="map-type-actions">
              <Button size="small" variant="quiet" onClick={() => setTypes(new Set(CATEGORIES.map((style) => style.category)))} disabled={allTypes}>All</Button>
              <Button size="small" variant="quiet" onClick={() => setTypes(new Set())} disabled={types.size === 0}>None</Button>
            </div>
            <ul class="map-legend">
              {CATEGORIES.map((style) => (
                <li key={style.category}>
                  <label>
                    <input type="checkbox" checked={types.has(style.category)} onChange={(event) => toggleType(style.category, event.currentTarget.checked)}
                      data-vessel-type={style.category} />
                    <span class="map-swatch" style={{ background: style.colour }} aria-hidden="true" />
                    {style.label}
                  </label>
                </li>
              ))}
            </ul>
            {noTypeChosen && <p class="hint">No type is chosen, so no vessel is shown. Choose at least one.</p>}
          </fieldset>
          <TextField label="Flags" value={flagsText} onValue={setFlagsText} placeholder="e.g. NL, PA" autoComplete="off"
            hint="Two-letter country codes, separated by commas." error={flags.errors.join('; ') || null} />
          <TextField label="MMSI or IMO" value={idsText} onValue={setIdsText} placeholder="e.g. 244123456, IMO 9074729" autoComplete="off" inputMode="numeric"
            hint="9-digit MMSIs or 7-digit IMO numbers, separated by commas." error={ids.errors.join('; ') || null} />
        </details>

        <details class="map-nearby" onToggle={(event) => {
          const open = (event.currentTarget as HTMLDetailsElement).open;
          setNearby(open && mapRef.current ? mapRef.current.nearest(12) : null);
        }}>
          <summary>Vessels near the centre</summary>
          {nearby && nearby.length === 0 && <p class="hint">No vessel near the centre of the map yet.</p>}
          {nearby && nearby.length > 0 && (
            <ul class="map-nearby-list">
              {nearby.map((vessel) => (
                <li key={vessel.mmsi}>
                  <button type="button" class="map-link-button" onClick={() => setSelected(vessel.mmsi)}>
                    <span class="map-swatch" style={{ background: categoryStyle(vessel.category).colour }} aria-hidden="true" />
                    {vessel.name ?? 'Unnamed'} <span class="muted">{vessel.mmsi}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </details>
        <p class="hint map-help">
          Drag or use the arrow keys to move, the wheel, a pinch or + and − to zoom, and click a vessel for its details;
          a numbered circle holds that many vessels (click it to zoom in). Map data: Natural Earth; labels in Noto Sans.
        </p>
      </div>

      <div class="map-stage">
        <div class="map-canvas" ref={stageRef} role="region" aria-label="Map of live vessels" />
        {selected !== null && (
          <VesselPanel key={selected} mmsi={selected} onClose={() => setSelected(null)} onVessel={detailsIn}
            onTrack={(points: Track['points'] | null) => mapRef.current?.setTrack(points)} />
        )}
      </div>
    </div>
  );
}

function statusBadge(status: StreamStatus, paused: boolean): [Tone, string] {
  if (paused && status.phase === 'live') return ['info', 'Paused'];
  switch (status.phase) {
    case 'live':
      return ['ok', 'Connected'];
    case 'connecting':
      return ['neutral', 'Connecting…'];
    case 'reconnecting':
      return ['warn', 'Reconnecting…'];
    case 'refused':
      return ['bad', 'Not connected'];
    case 'not-in-plan':
      return ['info', 'Snapshot'];
    case 'closed':
      return ['neutral', 'Closed'];
  }
}
