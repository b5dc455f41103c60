// Port search as you type: by name, alternate name, UN/LOCODE or WPI number, optionally within a
// country. The words searched go in the address, so back and reload keep the results.
import type { OperationResponse } from '@lamis/sdk';
import { useEffect, useState } from 'preact/hooks';
import { data } from '../../api/data-key.ts';
import { useAsync } from '../../app/hooks.ts';
import type { PageProps } from '../../app/router.tsx';
import { usePageTitle } from '../../app/router.tsx';
import { Button, EmptyState, ErrorMessage, Loading, PageHeader } from '../../app/ui/basics.tsx';
import { TextField } from '../../app/ui/forms.tsx';
import { DataTable } from '../../app/ui/table.tsx';
import { formatPosition } from '../map/format.ts';
import { harbourSizeText } from './format.ts';
import './ports.css';

type PortPage = OperationResponse<'GET /v3/maritime/ports'>;
type Port = PortPage['data'][number];

/** Typing pauses this long before a search goes out (each search costs a request of the key's budget). */
const SEARCH_DELAY_MS = 350;

export default function PortsSearch({ query }: PageProps) {
  usePageTitle('Ports');
  const [text, setText] = useState(query.get('q') ?? '');
  const [country, setCountry] = useState(query.get('country') ?? '');
  const [searched, setSearched] = useState({ q: text.trim(), country: country.trim().toUpperCase() });
  const [more, setMore] = useState<{ ports: Port[]; cursor: string | null; loading: boolean; error: unknown }>({ ports: [], cursor: null, loading: false, error: null });

  useEffect(() => {
    const timer = setTimeout(() => {
      const next = { q: text.trim(), country: country.trim().toUpperCase() };
      setSearched((previous) => (previous.q === next.q && previous.country === next.country ? previous : next));
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, country]);

  const countryValid = searched.country === '' || /^[A-Z]{2}$/.test(searched.country);
  const ready = (searched.q.length >= 2 || searched.country !== '') && countryValid;
  useEffect(() => {
    const url = new URL(window.location.href);
    for (const [name, value] of [['q', searched.q], ['country', searched.country]] as const) {
      if (value) url.searchParams.set(name, value);
      else url.searchParams.delete(name);
    }
    window.history.replaceState(window.history.state, '', url.pathname + url.search);
  }, [searched]);
  const results = useAsync<PortPage | null>((signal) => {
    if (!ready) return Promise.resolve(null);
    return data('GET /v3/maritime/ports', { query: { ...(searched.q ? { q: searched.q } : {}), ...(searched.country ? { country: searched.country } : {}), limit: 25 } }, { signal });
  }, [searched.q, searched.country]);

  useEffect(() => setMore({ ports: [], cursor: results.data?.next_cursor ?? null, loading: false, error: null }), [results.data]);

  async function loadMore() {
    if (!more.cursor) return;
    setMore({ ...more, loading: true, error: null });
    try {
      const page = await data('GET /v3/maritime/ports', { query: { ...(searched.q ? { q: searched.q } : {}), ...(searched.country ? { country: searched.country } : {}), limit: 25, cursor: more.cursor } });
      setMore({ ports: [...more.ports, ...page.data], cursor: page.next_cursor, loading: false, error: null });
    } catch (error) {
      setMore({ ...more, loading: false, error });
    }
  }

  const ports = results.data ? [...results.data.data, ...more.ports] : [];
  return (
    <>
      <PageHeader title="Ports">
        <p>Berths and occupancy, expected arrivals, port calls, tides with tidal windows for your draught, and weather holds.</p>
      </PageHeader>
      <form class="port-search" role="search" onSubmit={(event) => {
        event.preventDefault();
        setSearched({ q: text.trim(), country: country.trim().toUpperCase() });
      }}>
        <TextField label="Port" type="search" value={text} onValue={setText} placeholder="Rotterdam, NLRTM or WPI-31140" autoComplete="off"
          hint="A name, a UN/LOCODE or a World Port Index number." />
        <TextField label="Country" optional value={country} onValue={setCountry} placeholder="NL" maxLength={2} autoComplete="off"
          hint="Two-letter code." error={countryValid ? null : 'A country is a two-letter code, e.g. NL.'} />
        <div class="port-search-submit"><Button type="submit" variant="primary" busy={results.loading && ready}>Search</Button></div>
      </form>
      {!ready && countryValid && (
        <EmptyState title="Find a port">
          <p>Type at least two letters of a port's name, or its UN/LOCODE (for example <a href="/ports/NLRTM">NLRTM</a> for Rotterdam).</p>
        </EmptyState>
      )}
      {ready && results.loading && !results.data && <Loading label="Searching…" />}
      <ErrorMessage error={results.error} title="The search failed" />
      {ready && results.data && (
        <div aria-live="polite">
          <DataTable captionHidden caption={`Ports matching "${[searched.q, searched.country].filter(Boolean).join('" in ')}"`} rowKey={(port) => port.id} rows={ports}
            empty={<EmptyState title="No port matches"><p>Check the spelling, try the local name or the UN/LOCODE, or leave the country out.</p></EmptyState>}
            columns={[
              { header: 'Port', cell: (port) => <a href={`/ports/${encodeURIComponent(port.id)}`}>{port.name}</a> },
              { header: 'Code', cell: (port) => port.id },
              { header: 'Country', cell: (port) => port.country ?? '–' },
              { header: 'Harbour size', cell: (port) => harbourSizeText(port.harbour_size) },
              { header: 'Position', cell: (port) => formatPosition(port.lat, port.lon), wide: true },
            ]} />
          <ErrorMessage error={more.error} title="More results could not be loaded" />
          {more.cursor && <Button onClick={loadMore} busy={more.loading}>Show more ports</Button>}
        </div>
      )}
    </>
  );
}
