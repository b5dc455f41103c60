// Search on the live map by vessel name, MMSI, IMO number or port: vessels on the map answer at
// once, the vessel and port searches of the API a moment after typing stops. Choosing a result
// flies the map there (and opens a vessel's details).
import type { Vessel } from '@lamis/sdk';
import { useEffect, useState } from 'preact/hooks';
import { data } from '../../api/data-key.ts';
import { errorMessage } from '../../api/errors.ts';
import { AnchorIcon } from '../../app/ui/icons.tsx';
import { categoryStyle, type VesselCategory } from './categories.ts';
import { parseMapQuery, vesselMatches, type MapQuery } from './search.ts';
import type { VesselStore } from './vessel-store.ts';

export type SearchHit =
  | { kind: 'vessel'; mmsi: number; name: string | null; category: VesselCategory; lat: number | null; lon: number | null }
  | { kind: 'port'; id: string; name: string; country: string | null; lat: number; lon: number };

/** Typing pauses this long before the API is asked. */
const ASK_AFTER_MS = 450;
const MAX_HITS = 8;

function vesselHit(vessel: Vessel): SearchHit {
  return { kind: 'vessel', mmsi: vessel.mmsi, name: vessel.name, category: vessel.category, lat: vessel.position?.lat ?? null, lon: vessel.position?.lon ?? null };
}

async function remoteHits(query: MapQuery, signal: AbortSignal): Promise<SearchHit[]> {
  switch (query.kind) {
    case 'mmsi': {
      const vessel = await data('GET /v3/maritime/vessels/{mmsi}', { path: { mmsi: String(query.mmsi) } }, { signal }).catch((error: unknown) => {
        if ((error as { status?: number }).status === 404) return null;
        throw error;
      });
      return vessel ? [vesselHit(vessel)] : [];
    }
    case 'imo':
      return (await data('GET /v3/maritime/vessels', { query: { imo: String(query.imo), limit: 5 } }, { signal })).data.map(vesselHit);
    case 'name': {
      const [vessels, ports] = await Promise.all([
        data('GET /v3/maritime/vessels', { query: { name: query.text, limit: 5 } }, { signal }),
        data('GET /v3/maritime/ports', { query: { q: query.text, limit: 5 } }, { signal }),
      ]);
      return [
        ...ports.data.map((port): SearchHit => ({ kind: 'port', id: port.id, name: port.name, country: port.country, lat: port.lat, lon: port.lon })),
        ...vessels.data.map(vesselHit),
      ];
    }
    case 'none':
      return [];
  }
}

export function MapSearch({ store, onChoose }: { store: VesselStore; onChoose: (hit: SearchHit) => void }) {
  const [text, setText] = useState('');
  const [hits, setHits] = useState<SearchHit[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const query = parseMapQuery(text);
    const local: SearchHit[] = [];
    for (const vessel of store.values()) {
      if (local.length >= MAX_HITS) break;
      if (vesselMatches(vessel, query)) local.push({ kind: 'vessel', mmsi: vessel.mmsi, name: vessel.name, category: vessel.category, lat: vessel.lat, lon: vessel.lon });
    }
    setHits(local);
    setError(null);
    if (query.kind === 'none') return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      setBusy(true);
      remoteHits(query, controller.signal).then((found) => {
        const seen = new Set(local.map((hit) => (hit.kind === 'vessel' ? hit.mmsi : hit.id)));
        setHits([...local, ...found.filter((hit) => !seen.has(hit.kind === 'vessel' ? hit.mmsi : hit.id))].slice(0, MAX_HITS));
      }, (failure: unknown) => {
        if (!controller.signal.aborted) setError(errorMessage(failure));
      }).finally(() => {
        if (!controller.signal.aborted) setBusy(false);
      });
    }, ASK_AFTER_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [text]);

  const choose = (hit: SearchHit) => {
    onChoose(hit);
    setText('');
  };
  const query = parseMapQuery(text);
  return (
    <form class="map-search" role="search" onSubmit={(event) => {
      event.preventDefault();
      if (hits[0]) {
        choose(hits[0]);
        return;
      }
      // Enter before the results came: ask now, and go to the first.
      if (query.kind === 'none') return;
      setBusy(true);
      remoteHits(query, new AbortController().signal).then((found) => {
        if (found[0]) choose(found[0]);
        else setHits([]);
      }, (failure: unknown) => setError(errorMessage(failure))).finally(() => setBusy(false));
    }}>
      <label for="map-search-input" class="map-search-label">Find a vessel or port</label>
      <input id="map-search-input" type="search" value={text} onInput={(event) => setText(event.currentTarget.value)}
        placeholder="Name, MMSI, IMO or port" autoComplete="off" aria-describedby="map-search-status" />
      <p id="map-search-status" class="hint" aria-live="polite">
        {error ?? (text.trim() === '' ? null
          : query.kind === 'none' ? 'Type at least 3 letters, a 9-digit MMSI or a 7-digit IMO number.'
          : hits.length === 0 ? (busy ? 'Searching…' : 'Nothing found.') : null)}
      </p>
      {hits.length > 0 && (
        <ul class="map-search-results">
          {hits.map((hit) => (
            <li key={hit.kind === 'vessel' ? `v${hit.mmsi}` : `p${hit.id}`}>
              <button type="button" class="map-link-button" disabled={hit.lat === null} onClick={() => choose(hit)}>
                {hit.kind === 'vessel'
                  ? <><span class="map-swatch" style={{ background: categoryStyle(hit.category).colour }} aria-hidden="true" />
                    {hit.name ?? 'Unnamed'} <span class="muted">MMSI {hit.mmsi}{hit.lat === null ? ', no position' : ''}</span></>
                  : <><AnchorIcon size={14} /> {hit.name} <span class="muted">port {hit.id}{hit.country ? `, ${hit.country}` : ''}</span></>}
              </button>
            </li>
          ))}
        </ul>
      )}
    </form>
  );
}
