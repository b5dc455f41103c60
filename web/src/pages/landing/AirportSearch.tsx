// Choose an airport by typing: a combobox (WAI-ARIA 1.2 pattern) over
// `GET /v3/aviation/airports?q=`, asked once typing pauses, each answer kept for the page's life
// (the data key's budget is small). A typed 3–4 character code is taken as it is.
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { data } from '../../api/data-key.ts';
import { errorMessage } from '../../api/errors.ts';
import type { AirportSummary } from './types.ts';
import './airport-search.css';

const TYPING_PAUSE_MS = 300;
const MIN_QUERY = 2;
const answers = new Map<string, AirportSummary[]>();

const TYPE_NAMES: Record<string, string> = {
  large_airport: 'large airport', medium_airport: 'medium airport', small_airport: 'small airport', heliport: 'heliport',
  seaplane_base: 'seaplane base', balloonport: 'balloon port', closed: 'closed',
};

function describe(airport: AirportSummary): string {
  const place = [airport.municipality, airport.country].filter(Boolean).join(', ');
  return `${airport.name}${place ? ` · ${place}` : ''} · ${TYPE_NAMES[airport.type] ?? airport.type}`;
}

export interface ChosenAirport {
  icao: string;
  name: string | null;
}

export function AirportSearch({ value, onChoose, error }: { value: ChosenAirport | null; onChoose: (airport: ChosenAirport | null) => void; error?: string | null }) {
  const id = useId();
  const [text, setText] = useState(value ? (value.name ? `${value.icao} · ${value.name}` : value.icao) : '');
  const [results, setResults] = useState<AirportSummary[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [searching, setSearching] = useState(false);
  const [searchError, setSearchError] = useState<string | null>(null);
  /** The query the results answer, to say when nothing matched. */
  const [answered, setAnswered] = useState('');
  const input = useRef<HTMLInputElement>(null);

  // A choice made elsewhere (the address, a shortcut) shows in the box.
  useEffect(() => {
    if (value && !text.toUpperCase().startsWith(value.icao)) setText(value.name ? `${value.icao} · ${value.name}` : value.icao);
  }, [value?.icao]);

  useEffect(() => {
    const query = text.trim();
    if (!open || query.length < MIN_QUERY || (value && text.startsWith(`${value.icao} · `))) {
      setResults([]);
      setSearching(false);
      return;
    }
    const known = answers.get(query.toLowerCase());
    if (known) {
      setResults(known);
      setAnswered(query);
      setActive(-1);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      setSearching(true);
      try {
        const page = await data('GET /v3/aviation/airports', { query: { q: query, limit: 8 } }, { signal: controller.signal });
        answers.set(query.toLowerCase(), page.data);
        setResults(page.data);
        setAnswered(query);
        setActive(-1);
        setSearchError(null);
      } catch (failure) {
        if (!controller.signal.aborted) setSearchError(errorMessage(failure));
      } finally {
        if (!controller.signal.aborted) setSearching(false);
      }
    }, TYPING_PAUSE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [text, open]);

  const choose = (airport: AirportSummary) => {
    setText(`${airport.icao} · ${airport.name}`);
    setOpen(false);
    setResults([]);
    onChoose({ icao: airport.icao, name: airport.name });
  };

  const typed = (next: string) => {
    setText(next);
    setOpen(true);
    // A code typed in full is a choice by itself; a name is not until picked from the list.
    const code = next.trim().toUpperCase();
    onChoose(/^[A-Z0-9]{3,4}$/.test(code) ? { icao: code, name: null } : null);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setOpen(true);
      setActive((i) => Math.min(results.length - 1, i + 1));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((i) => Math.max(0, i - 1));
    } else if (event.key === 'Enter' && open && active >= 0 && results[active]) {
      event.preventDefault();
      choose(results[active]!);
    } else if (event.key === 'Escape') {
      setOpen(false);
    }
  };

  const listId = `${id}-list`;
  const showList = open && results.length > 0;
  const described = [`${id}-hint`, error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div class={`field combobox${error ? ' has-error' : ''}`}>
      <label for={id}>Destination airport</label>
      <div class="hint" id={`${id}-hint`}>Type an ICAO code, a name or a city, then pick from the list.</div>
      <div class="combobox-box">
        <input
          ref={input}
          id={id}
          type="text"
          role="combobox"
          autocomplete="off"
          spellcheck={false}
          aria-autocomplete="list"
          aria-expanded={showList}
          aria-controls={listId}
          aria-activedescendant={showList && active >= 0 ? `${id}-option-${active}` : undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={described}
          value={text}
          placeholder="EGLL or Heathrow"
          onInput={(event) => typed(event.currentTarget.value)}
          onKeyDown={onKeyDown}
          onFocus={() => setOpen(true)}
          onBlur={() => setTimeout(() => setOpen(false), 150)}
        />
        {searching && <span class="spinner spinner-inline combobox-spinner" aria-hidden="true" />}
        <ul id={listId} role="listbox" aria-label="Airports found" class="combobox-list" hidden={!showList}>
          {results.map((airport, index) => (
            <li
              key={airport.icao}
              id={`${id}-option-${index}`}
              role="option"
              aria-selected={index === active}
              class={index === active ? 'is-active' : undefined}
              onMouseDown={(event) => {
                event.preventDefault();
                choose(airport);
              }}
            >
              <span class="combobox-code">{airport.icao}</span>
              <span class="combobox-name">{describe(airport)}</span>
            </li>
          ))}
        </ul>
      </div>
      <p class="visually-hidden" aria-live="polite">{showList ? `${results.length} airports found` : ''}</p>
      {open && !searching && !value && answered === text.trim() && results.length === 0 && (
        <p class="hint">No airport matches “{answered}”. Try the ICAO code, another spelling or the city.</p>
      )}
      {searchError && <p class="field-error">{searchError}</p>}
      {error && <p class="field-error" id={`${id}-error`}>{error}</p>}
    </div>
  );
}
