// The organisation's zones: all of them on a map (a click opens one) and in a table with each
// zone's shape and what it watches, 100 at a time. Drawing a new one is a page of its own.
import { useState } from 'preact/hooks';
import { data } from '../../api/data-key.ts';
import { formatUtc } from '../../app/format.ts';
import { useAsync } from '../../app/hooks.ts';
import { navigate } from '../../app/router.tsx';
import { Button, ButtonLink, EmptyState, ErrorMessage, Loading, PageHeader, Section } from '../../app/ui/basics.tsx';
import { DataTable } from '../../app/ui/table.tsx';
import { appliesToSummary, shapeSummary, type Zone } from './zone-geometry.ts';
import { ZoneMap } from './ZoneMap.tsx';
import './zones.css';

type ZonePage = { data: Zone[]; next_cursor: string | null };
const PAGE = 100;

export default function ZonesPage() {
  const first = useAsync(async (signal) => (await data('GET /v3/zones', { query: { limit: PAGE } }, { signal })) as ZonePage, []);
  const [more, setMore] = useState<ZonePage | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const [moreError, setMoreError] = useState<unknown>(null);
  const zones = [...(first.data?.data ?? []), ...(more?.data ?? [])];
  const cursor = more ? more.next_cursor : first.data?.next_cursor ?? null;

  const loadMore = async () => {
    setLoadingMore(true);
    try {
      const page = (await data('GET /v3/zones', { query: { limit: PAGE, cursor: cursor! } })) as ZonePage;
      setMore({ data: [...(more?.data ?? []), ...page.data], next_cursor: page.next_cursor });
      setMoreError(null);
    } catch (error) {
      setMoreError(error);
    } finally {
      setLoadingMore(false);
    }
  };

  return (
    <>
      <PageHeader title="Zones" actions={<ButtonLink href="/zones/new" variant="primary">Draw a zone</ButtonLink>}>
        Areas LAMIS watches for you: a vessel of your fleet entering or leaving one raises an alert (<code>vessel.zone_entered</code>, <code>vessel.zone_exited</code>).
      </PageHeader>
      <ErrorMessage error={first.error ?? moreError} />
      {first.loading && !first.data ? <Loading /> : first.data && (
        zones.length === 0 ? (
          <EmptyState title="No zones yet" action={<ButtonLink href="/zones/new" variant="primary">Draw a zone</ButtonLink>}>
            Draw an area on the map — an approach, an anchorage, a restricted area — and LAMIS tells you when your vessels enter or leave it.
          </EmptyState>
        ) : (
          <>
            <div class="zones-overview">
              <ZoneMap zones={zones} onSelect={(id) => navigate(`/zones/${id}`)} label="Map of your zones" />
            </div>
            <Section title={`${zones.length}${cursor ? '+' : ''} zone${zones.length === 1 ? '' : 's'}`} id="zones">
              <DataTable<Zone>
                caption="Your zones"
                captionHidden
                rows={zones}
                rowKey={(zone) => zone.id}
                columns={[
                  {
                    header: 'Name',
                    cell: (zone) => (
                      <div>
                        <a href={`/zones/${zone.id}`}><strong>{zone.name}</strong></a>
                        {zone.description && <div class="small muted">{zone.description}</div>}
                      </div>
                    ),
                  },
                  { header: 'Area', cell: (zone) => shapeSummary(zone.geometry) },
                  { header: 'Watches', cell: (zone) => appliesToSummary(zone.applies_to) },
                  { header: 'Last changed', cell: (zone) => <span class="nowrap">{formatUtc(zone.updated_at)}</span> },
                ]}
              />
              {cursor && <div class="button-row"><Button busy={loadingMore} onClick={loadMore}>Show more zones</Button></div>}
            </Section>
          </>
        )
      )}
    </>
  );
}
