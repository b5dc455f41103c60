// Small nav.dat files written for the tests, one per column layout, with made-up idents,
// positions and frequencies around two airports of the airport data (KJFK and EGLL).

/** Format 810: airport, runway and type follow the ident. Line numbers count from 1. */
export const NAVDAT_810 = [
  'I', // 1
  '810 Version - data cycle 2099.01, build 20990101, metadata NavXP810.  Test data written for LAMIS.', // 2
  '', // 3
  '2  40.70000000 -073.80000000     10   400  25    0.0 JFA  TEST NDB', // 4
  '3  40.60000000 -073.90000000     10 11500 130  -13.0 JFV  TEST VOR-DME', // 5
  '4  40.64800000 -073.75300000     13 10950  18      30.700 IAAA KJFK 04R ILS-cat-III', // 6
  '4  40.65100000 -073.76300000     13 11090  18      30.700 IBBB KJFK 4L ILS-cat-I', // 7
  '4  40.64200000 -073.75500000     13 11150  18     120.900 ICCC KJFK 13L ILS-cat-II', // 8
  '5  40.62400000 -073.77100000     13 11030  18     210.700 IDDD KJFK 22L LOC', // 9
  '6  40.62800000 -073.77000000     13 10950  10  300030.700 IAAA KJFK 04R GS', // 10
  '6  40.62400000 -073.78300000     10 11090  10  320030.700 IBBB KJFK 04L GS', // 11
  '7  40.59000000 -073.68400000     13     0   0     30.700 ---- KJFK 04R OM', // 12
  '12  40.62900000 -073.77800000    13 10950  18       0.000 IAAA KJFK 04R DME-ILS', // 13
  '4  91.00000000 -073.75300000     13 10950  18      30.700 IEEE KJFK 31L ILS-cat-I', // 14: latitude out of range
  '4  40.64800000 -073.75300000     13 11795  18      30.700 IFFF KJFK 31R ILS-cat-I', // 15: not a localizer channel
  '4  40.64800000 -073.75300000     13 10950  18      30.700 IAAA KJFK 04R ILS-cat-III', // 16: again
  '5  40.64800000 -073.75300000     13 10950  18      30.700 IGGG KJFK 22R ILS-cat-I', // 17: an ILS type on a LOC row
  '6  40.64800000 -073.75300000     13 10950  10  300030.700  KJFK 22R GS', // 18: ident missing
  '42 40.64800000 -073.75300000     13 10950  10       0.000 XXXX KJFK 22R ??', // 19: unknown row code
  '99', // 20
  '4  40.64800000 -073.75300000     13 10950  18      30.700 IZZZ KJFK 31L ILS-cat-I', // after the end: not read
].join('\n');

/** Format 1200: the ICAO region sits between airport and runway; the course folds in the magnetic one. */
export const NAVDAT_1200 = [
  'I',
  '1200 Version - data cycle 2501, build 20250101, metadata NavXP1200. Test data written for LAMIS.',
  '',
  '2  51.50000000  -0.50000000      0   390  50    0.0 LLA  ENRT EG TEST NDB',
  '3  51.48000000  -0.45000000     80 11420 130    1.0 LLV  ENRT EG TEST VOR/DME',
  '4  51.46476111  -0.49116667     77 10950  18  97109.717 ILLA EGLL EG 27L ILS-cat-III',
  '4  51.47750000  -0.43330000     77 11030  18     89.600 ILLB EGLL EG 9L ILS-cat-II',
  '6  51.46374167  -0.43555556     77 10950  10 300269.717 ILLA EGLL EG 27L GS',
  '8  51.46400000  -0.40000000     77     0   0    269.717 ---- EGLL EG 27L MM',
  '12 51.46476111  -0.49116667     77 10950  18      0.000 ILLA EGLL EG 27L DME-ILS',
  '14 51.46476111  -0.49116667     77 10950  18      0.000 ILLA EGLL EG 27L FPAP',
  '4  51.46476111  -0.49116667     77 10950  18     269.717 ILLC EGLL 27R ILS-cat-I',
  '99',
].join('\n');
