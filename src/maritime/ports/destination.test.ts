import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sharedFile } from '../../../test/support/shared.ts';
import { simulatorPorts } from '../feeds/simulator/ports.ts';
import { destinationText } from '../feeds/simulator/reports.ts';
import { createDestinationMatcher, routeLegs, type DestinationMatcher } from './destination.ts';
import { loadPorts } from './ports.ts';
import { saveImport } from './store.ts';
import { parseWpiCsv } from './wpi.ts';

const ROTTERDAM = { lat: 51.95, lon: 4.1 };

function expectPort(matcher: DestinationMatcher, cases: Readonly<Record<string, string>>, near?: { lat: number; lon: number }) {
  const wrong: string[] = [];
  for (const [text, expected] of Object.entries(cases)) {
    const result = matcher.match(text, near);
    const got = result.status === 'port' ? result.port.id : `no port (${result.reason})`;
    if (got !== expected) wrong.push(`${JSON.stringify(text)}: ${got}, expected ${expected}`);
  }
  assert.deepEqual(wrong, []);
}

describe('AIS destinations against the built-in ports (sea-ports and World Port Index)', () => {
  let matcher: DestinationMatcher;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lamis-destination-'));
  before(async () => {
    matcher = createDestinationMatcher(await loadPorts({ dataDir }));
  });
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  test('UN/LOCODEs with or without the space, separators and padding', () => {
    expectPort(matcher, {
      'NLRTM': 'NLRTM', 'NL RTM': 'NLRTM', 'nl rtm': 'NLRTM', ' NLRTM@@@@@@@@@@@@@@@': 'NLRTM', 'NL-RTM': 'NLRTM', 'NL.RTM': 'NLRTM',
      'DEHAM': 'DEHAM', 'SG SIN': 'SGSIN', 'SGSIN': 'SGSIN', 'US LAX': 'USLAX', 'CNSHA': 'CNSHA', 'KR PUS': 'KRPUS',
      'NLRTM ANCH': 'NLRTM', 'NL RTM PILOT': 'NLRTM', 'DEHAM 12': 'DEHAM',
    });
  });

  test('port names in any case, with punctuation, spacing and the common spellings', () => {
    expectPort(matcher, {
      'ROTTERDAM': 'NLRTM', 'Rotterdam': 'NLRTM', 'ROTTERDAM.': 'NLRTM', 'HAMBURG': 'DEHAM', 'SINGAPORE': 'SGSIN',
      'HONG KONG': 'HKHKG', 'HONGKONG': 'HKHKG', 'LE HAVRE': 'FRLEH', 'LEHAVRE': 'FRLEH', 'ANTWERPEN': 'BEANR',
      'PORT SAID': 'EGPSD', 'PT SAID': 'EGPSD', 'PT.SAID': 'EGPSD', 'ST PETERSBURG': 'RULED', 'ST.PETERSBURG': 'RULED',
      'SAINT PETERSBURG': 'RULED', 'PORT-OF-SPAIN': 'TTPOS', 'PORT OF SPAIN': 'TTPOS', 'HELSINKI': 'FIHEL',
      'HELSINGFORS': 'FIHEL', 'NHAVA SHEVA': 'INNSA', 'JAKARTA': 'IDJKT', 'GÖTEBORG': 'SEGOT', 'GOTEBORG': 'SEGOT',
      'TANGER MED': 'MAPTM', 'JEBEL ALI': 'AEJEA', 'LAS PALMAS DE GRAN C': 'ESLPA', 'ANCHORAGE': 'USANC', 'LONG BEACH': 'USLGB',
    });
  });

  test('abbreviations and English names crews use', () => {
    expectPort(matcher, {
      'RTM': 'NLRTM', 'HH': 'DEHAM', 'S\'PORE': 'SGSIN', 'SPORE': 'SGSIN', 'HK': 'HKHKG', 'ANTWERP': 'BEANR', 'GENOA': 'ITGOA',
      'GOTHENBURG': 'SEGOT', 'COPENHAGEN': 'DKCPH', 'NAPLES': 'ITNAP', 'VENICE': 'ITVCE', 'ALEXANDRIA': 'EGALY', 'NY': 'USNYC',
      'LA': 'USLAX', 'LB': 'USLGB', 'BHV': 'DEBRV', 'FXT': 'GBFXT', 'SOTON': 'GBSOU', 'TNG MED': 'MAPTM',
    });
  });

  test('the place in the port and a trailing country are read past', () => {
    expectPort(matcher, {
      'ROTTERDAM ANCH': 'NLRTM', 'ROTTERDAM ANCHORAGE': 'NLRTM', 'ROTTERDAM OPL': 'NLRTM', 'SINGAPORE EOPL': 'SGSIN',
      'SINGAPORE PILOT STN': 'SGSIN', 'PORT SAID ANCH': 'EGPSD', 'HAMBURG ROADS': 'DEHAM', 'ROTTERDAM NL': 'NLRTM',
      'ROTTERDAM,NL': 'NLRTM', 'ROTTERDAM/NETHERLANDS': 'NLRTM', 'SANTOS BRAZIL': 'BRSSZ', 'SANTOS BR': 'BRSSZ',
      'NEW YORK NY': 'USNYC', 'NEW YORK,USA': 'USNYC', 'ROTTERDAM EUROPOORT': 'NLRTM', 'DURBAN SOUTH AFRICA': 'ZADUR',
      'FOR ROTTERDAM': 'NLRTM',
    });
  });

  test('routes: the last leg is where the vessel is bound; VIA is the way there', () => {
    expectPort(matcher, {
      'NLRTM>DEHAM': 'DEHAM', 'NL RTM > DE HAM': 'DEHAM', 'RTM>HAM': 'DEHAM', 'NLRTM->DEHAM': 'DEHAM', 'NLRTM=>DEHAM': 'DEHAM',
      'NLRTM>>DEHAM': 'DEHAM', 'DEHAM>NLRTM>GBFXT': 'GBFXT', 'FROM ROTTERDAM TO HAMBURG': 'DEHAM', 'ROTTERDAM TO HAMBURG': 'DEHAM',
      'HAMBURG VIA KIEL': 'DEHAM', 'NLRTM>': 'NLRTM', '>SGSIN': 'SGSIN', 'CNSHA>NLRTM VIA SUEZ': 'NLRTM',
    });
    assert.deepEqual(routeLegs('NL RTM > DE HAM VIA KIEL CANAL'), ['NL RTM', 'DE HAM']);
    assert.deepEqual(routeLegs('FROM ROTTERDAM TO HAMBURG'), ['ROTTERDAM', 'HAMBURG']);
  });

  test('orders, placeholders and activities name no port', () => {
    const reasons = Object.fromEntries(
      ['FOR ORDERS', 'FOR ORDER', 'F.O.', 'FO', 'AWAITING ORDERS', 'ORDERS', 'NLRTM>FOR ORDERS'].map((text) => [text, 'no port (for_orders)']),
    );
    expectPort(matcher, reasons);
    expectPort(matcher, Object.fromEntries(
      ['TBA', 'TBN', 'N/A', 'UNKNOWN', 'AT SEA', 'FISHING', 'FISHING GROUNDS', 'SEA TRIALS', 'DRIFTING', 'STS'].map((text) => [text, 'no port (not_a_port)']),
    ));
    expectPort(matcher, { '': 'no port (empty)', '@@@@@@@@@@@@@@@@@@@@': 'no port (empty)', '   ': 'no port (empty)', '0': 'no port (empty)', '12345': 'no port (empty)' });
    expectPort(matcher, { 'XXYYY': 'no port (unknown)', 'ZZ ZZZ': 'no port (unknown)', 'ATLANTIS': 'no port (unknown)', 'PORT': 'no port (unknown)' });
    assert.equal(matcher.match(null).status, 'no_port');
  });

  test('a name several ports share goes to the one nearest the vessel, and says it was a choice', () => {
    // Two medium harbours called Tripoli, in Lebanon and in Libya.
    const tripoli = (near: { lat: number; lon: number }) => matcher.match('TRIPOLI', near);
    const lebanon = tripoli({ lat: 34.3, lon: 35.5 });
    const libya = tripoli({ lat: 33.2, lon: 13.5 });
    assert.ok(lebanon.status === 'port' && libya.status === 'port');
    assert.deepEqual([lebanon.port.id, libya.port.id, lebanon.ambiguous], ['LBKYE', 'LYTIP', true]);
    // Otherwise the larger harbour: Portland, Oregon, even off Maine.
    const portland = matcher.match('PORTLAND', { lat: 43.5, lon: -69.9 });
    assert.ok(portland.status === 'port' && portland.port.id === 'USPDX' && !portland.ambiguous);
    // A port's own name wins over another port's alternate name: Los Angeles lists "Long Beach" too.
    const longBeach = matcher.match('LONG BEACH', { lat: 34, lon: -118.2 });
    assert.ok(longBeach.status === 'port' && longBeach.port.id === 'USLGB' && !longBeach.ambiguous);
    // The built-in data has Southampton under Bermuda as well, at the English position.
    const southampton = matcher.match('SOUTHAMPTON', { lat: 50.8, lon: -1.3 });
    assert.ok(southampton.status === 'port' && southampton.port.id === 'GBSOU');
    // A country in the text decides before distance does.
    const stated = matcher.match('HAMILTON BM', { lat: 43.2, lon: -79.8 });
    assert.ok(stated.status === 'port' && stated.port.country === 'BM', JSON.stringify(stated));
    const unique = matcher.match('ROTTERDAM', ROTTERDAM);
    assert.ok(unique.status === 'port' && unique.port.id === 'NLRTM');
  });

  test('every destination the simulator writes finds its port', () => {
    const wrong: string[] = [];
    for (const port of simulatorPorts()) {
      for (const style of ['locode', 'spaced', 'name'] as const) {
        const text = destinationText(port, style);
        const result = matcher.match(text, port);
        if (result.status !== 'port' || result.port.id !== port.locode) wrong.push(`${text}: ${result.status === 'port' ? result.port.id : result.reason}, expected ${port.locode}`);
      }
    }
    assert.deepEqual(wrong, []);
  });
});

const shared = sharedFile('data/ports/UpdatedPub150.csv');
describe('AIS destinations with the World Port Index imported', { skip: shared.skip }, () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lamis-destination-wpi-'));
  let matcher: DestinationMatcher;
  before(async () => {
    const parsed = parseWpiCsv(readFileSync(shared.path!));
    assert.ok(parsed.ok);
    await saveImport(dataDir, 'wpi', 'UpdatedPub150.csv', parsed.entries);
    matcher = createDestinationMatcher(await loadPorts({ dataDir }));
  });
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  test('names and codes still find the merged ports; the larger harbour wins a shared name', () => {
    expectPort(matcher, {
      'NLRTM': 'NLRTM', 'ROTTERDAM': 'NLRTM', 'RTM': 'NLRTM', 'GAETA': 'ITGAE', 'KEPPEL': 'SGSIN', 'HAMBURG': 'DEHAM',
      'ANTWERP': 'BEANR', 'VALENCIA': 'ESVLC', 'CARTAGENA ES': 'ESCAR', 'CARTAGENA CO': 'COCTG',
    }, { lat: 0, lon: 0 });
  });
});
