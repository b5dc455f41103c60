// OurAirports CSV files in their published format, cut down to a few rows for tests of the
// compiler, the merge and `lamis data sync`. The rows are real (public domain) except where a
// comment says a value was changed to tell a synced file from the committed one.

const RUNWAY_HEADER = '"id","airport_ref","airport_ident","length_ft","width_ft","surface","lighted","closed","le_ident","le_latitude_deg","le_longitude_deg","le_elevation_ft","le_heading_degT","le_displaced_threshold_ft","he_ident","he_latitude_deg","he_longitude_deg","he_elevation_ft","he_heading_degT","he_displaced_threshold_ft"';

/** EGLL's two runways (27R given a displaced threshold of 500 ft it does not have), EGKA's asphalt runway, a closed KGAD runway, one row without an id. */
export const RUNWAYS_CSV = [
  RUNWAY_HEADER,
  '239399,2434,"EGLL",12799,164,"ASP",1,0,"09L",51.47749,-0.489439,79,90,1007,"27R",51.477681,-0.433227,78,270,500',
  '239398,2434,"EGLL",12001,164,"ASP",1,0,"09R",51.46478,-0.486808,75,90,1013,"27L",51.464957,-0.434048,77,270,',
  '239394,2427,"EGKA",3385,59,"ASP",1,0,"02",50.832001,-0.299531,7,22,459,"20",50.839901,-0.294595,7,202,313',
  '241693,19920,"KGAD",4806,150,"ASP",1,1,"18",33.982399,-86.085899,542,180,,"36",33.9692,-86.085999,552,360,',
  '260073,31697,"BGAA",2621,,"UNK",0,0,"12",,,71,,,"30",,,66,,',
  ',2434,"EGLL",1000,100,"ASP",1,0,"01",,,,,,"19",,,,,',
  '',
].join('\n');

/** Heathrow's tower and ATIS, Shoreham's ATIS, and a row without a frequency. */
export const FREQUENCIES_CSV = [
  '"id","airport_ref","airport_ident","type","description","frequency_mhz"',
  '58111,2434,"EGLL","TWR","Heathrow Tower",118.5',
  '323434,2434,"EGLL","ATIS","Heathrow ATIS",113.75',
  '58104,2427,"EGKA","ATIS","ATIS",130.975',
  '58105,2427,"EGKA","TWR","TWR",',
  '',
].join('\n');

/** London VOR-DME (associated with EGLL) and an NDB associated with no airport. */
export const NAVAIDS_CSV = [
  '"id","filename","ident","name","type","frequency_khz","latitude_deg","longitude_deg","elevation_ft","iso_country","dme_frequency_khz","dme_channel","dme_latitude_deg","dme_longitude_deg","dme_elevation_ft","slaved_variation_deg","magnetic_variation_deg","usageType","power","associated_airport"',
  '90474,"London_VOR-DME_GB","LON","London","VOR-DME",113600,51.48720169067383,-0.4666669964790344,110,"GB",113600,"083X",,,,-3.001,-2.243,"BOTH","HIGH","EGLL"',
  '85051,"Sable_Island_NDB_CA","1B","Sable Island","NDB",277,43.930599212646484,-60.02289962768555,,"CA",,,,,,,-19.1,"LO","MEDIUM",',
  '',
].join('\n');
