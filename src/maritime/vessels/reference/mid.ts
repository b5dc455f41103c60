// ITU Maritime Identification Digits (Radio Regulations Appendix 42, ITU MID table), typed in as data.
// Each MID names the administration (flag) that assigns the identity. Territories with their own
// ISO 3166-1 code keep it (GI, BM, HK, FO, GL, PR, GP...); areas without one carry the parent's
// or the nearest covering code plus an `area` note (Azores, Alaska, Adélie Land, Ascension...).

export type MidInfo = {
  readonly mid: number;
  /** ISO 3166-1 alpha-2 of the flag. */
  readonly alpha2: string;
  /** English short name of the flag. */
  readonly country: string;
  /** The ITU geographic area when it is narrower than the country (e.g. "Azores"). */
  readonly area?: string;
};

// [MIDs, alpha-2, country, area?] in ITU table order; MIDs as "232-235" ranges or space-separated.
type Row = readonly [mids: string, alpha2: string, country: string, area?: string];

const ROWS: readonly Row[] = [
  // 2xx: Europe
  ['201', 'AL', 'Albania'],
  ['202', 'AD', 'Andorra'],
  ['203', 'AT', 'Austria'],
  ['204', 'PT', 'Portugal', 'Azores'],
  ['205', 'BE', 'Belgium'],
  ['206', 'BY', 'Belarus'],
  ['207', 'BG', 'Bulgaria'],
  ['208', 'VA', 'Vatican City'],
  ['209-210', 'CY', 'Cyprus'],
  ['211', 'DE', 'Germany'],
  ['212', 'CY', 'Cyprus'],
  ['213', 'GE', 'Georgia'],
  ['214', 'MD', 'Moldova'],
  ['215', 'MT', 'Malta'],
  ['216', 'AM', 'Armenia'],
  ['218', 'DE', 'Germany'],
  ['219-220', 'DK', 'Denmark'],
  ['224-225', 'ES', 'Spain'],
  ['226-228', 'FR', 'France'],
  ['229', 'MT', 'Malta'],
  ['230', 'FI', 'Finland'],
  ['231', 'FO', 'Faroe Islands'],
  ['232-235', 'GB', 'United Kingdom'],
  ['236', 'GI', 'Gibraltar'],
  ['237', 'GR', 'Greece'],
  ['238', 'HR', 'Croatia'],
  ['239-241', 'GR', 'Greece'],
  ['242', 'MA', 'Morocco'],
  ['243', 'HU', 'Hungary'],
  ['244-246', 'NL', 'Netherlands'],
  ['247', 'IT', 'Italy'],
  ['248-249', 'MT', 'Malta'],
  ['250', 'IE', 'Ireland'],
  ['251', 'IS', 'Iceland'],
  ['252', 'LI', 'Liechtenstein'],
  ['253', 'LU', 'Luxembourg'],
  ['254', 'MC', 'Monaco'],
  ['255', 'PT', 'Portugal', 'Madeira'],
  ['256', 'MT', 'Malta'],
  ['257-259', 'NO', 'Norway'],
  ['261', 'PL', 'Poland'],
  ['262', 'ME', 'Montenegro'],
  ['263', 'PT', 'Portugal'],
  ['264', 'RO', 'Romania'],
  ['265-266', 'SE', 'Sweden'],
  ['267', 'SK', 'Slovakia'],
  ['268', 'SM', 'San Marino'],
  ['269', 'CH', 'Switzerland'],
  ['270', 'CZ', 'Czechia'],
  ['271', 'TR', 'Türkiye'],
  ['272', 'UA', 'Ukraine'],
  ['273', 'RU', 'Russia'],
  ['274', 'MK', 'North Macedonia'],
  ['275', 'LV', 'Latvia'],
  ['276', 'EE', 'Estonia'],
  ['277', 'LT', 'Lithuania'],
  ['278', 'SI', 'Slovenia'],
  ['279', 'RS', 'Serbia'],
  // 3xx: North America, Central America and the Caribbean
  ['301', 'AI', 'Anguilla'],
  ['303', 'US', 'United States', 'Alaska'],
  ['304-305', 'AG', 'Antigua and Barbuda'],
  // One MID covers the Dutch Caribbean; CW is the code most traffic from it is filed under.
  ['306', 'CW', 'Curaçao', 'Curaçao, Sint Maarten, Bonaire, Sint Eustatius and Saba'],
  ['307', 'AW', 'Aruba'],
  ['308-309', 'BS', 'Bahamas'],
  ['310', 'BM', 'Bermuda'],
  ['311', 'BS', 'Bahamas'],
  ['312', 'BZ', 'Belize'],
  ['314', 'BB', 'Barbados'],
  ['316', 'CA', 'Canada'],
  ['319', 'KY', 'Cayman Islands'],
  ['321', 'CR', 'Costa Rica'],
  ['323', 'CU', 'Cuba'],
  ['325', 'DM', 'Dominica'],
  ['327', 'DO', 'Dominican Republic'],
  ['329', 'GP', 'Guadeloupe'],
  ['330', 'GD', 'Grenada'],
  ['331', 'GL', 'Greenland'],
  ['332', 'GT', 'Guatemala'],
  ['334', 'HN', 'Honduras'],
  ['336', 'HT', 'Haiti'],
  ['338', 'US', 'United States'],
  ['339', 'JM', 'Jamaica'],
  ['341', 'KN', 'Saint Kitts and Nevis'],
  ['343', 'LC', 'Saint Lucia'],
  ['345', 'MX', 'Mexico'],
  ['347', 'MQ', 'Martinique'],
  ['348', 'MS', 'Montserrat'],
  ['350', 'NI', 'Nicaragua'],
  ['351-357', 'PA', 'Panama'],
  ['358', 'PR', 'Puerto Rico'],
  ['359', 'SV', 'El Salvador'],
  ['361', 'PM', 'Saint Pierre and Miquelon'],
  ['362', 'TT', 'Trinidad and Tobago'],
  ['364', 'TC', 'Turks and Caicos Islands'],
  ['366-369', 'US', 'United States'],
  ['370-374', 'PA', 'Panama'],
  ['375-377', 'VC', 'Saint Vincent and the Grenadines'],
  ['378', 'VG', 'British Virgin Islands'],
  ['379', 'VI', 'U.S. Virgin Islands'],
  // 4xx: Asia (except the south-east)
  ['401', 'AF', 'Afghanistan'],
  ['403', 'SA', 'Saudi Arabia'],
  ['405', 'BD', 'Bangladesh'],
  ['408', 'BH', 'Bahrain'],
  ['410', 'BT', 'Bhutan'],
  ['412-414', 'CN', 'China'],
  ['416', 'TW', 'Taiwan'],
  ['417', 'LK', 'Sri Lanka'],
  ['419', 'IN', 'India'],
  ['422', 'IR', 'Iran'],
  ['423', 'AZ', 'Azerbaijan'],
  ['425', 'IQ', 'Iraq'],
  ['428', 'IL', 'Israel'],
  ['431-432', 'JP', 'Japan'],
  ['434', 'TM', 'Turkmenistan'],
  ['436', 'KZ', 'Kazakhstan'],
  ['437', 'UZ', 'Uzbekistan'],
  ['438', 'JO', 'Jordan'],
  ['440-441', 'KR', 'South Korea'],
  ['443', 'PS', 'Palestine'],
  ['445', 'KP', 'North Korea'],
  ['447', 'KW', 'Kuwait'],
  ['450', 'LB', 'Lebanon'],
  ['451', 'KG', 'Kyrgyzstan'],
  ['453', 'MO', 'Macao'],
  ['455', 'MV', 'Maldives'],
  ['457', 'MN', 'Mongolia'],
  ['459', 'NP', 'Nepal'],
  ['461', 'OM', 'Oman'],
  ['463', 'PK', 'Pakistan'],
  ['466', 'QA', 'Qatar'],
  ['468', 'SY', 'Syria'],
  ['470-471', 'AE', 'United Arab Emirates'],
  ['472', 'TJ', 'Tajikistan'],
  ['473', 'YE', 'Yemen'],
  ['475', 'YE', 'Yemen'],
  ['477', 'HK', 'Hong Kong'],
  ['478', 'BA', 'Bosnia and Herzegovina'],
  // 5xx: Oceania, the eastern Indian Ocean and south-east Asia
  ['501', 'TF', 'French Southern Territories', 'Adélie Land'],
  ['503', 'AU', 'Australia'],
  ['506', 'MM', 'Myanmar'],
  ['508', 'BN', 'Brunei'],
  ['510', 'FM', 'Micronesia'],
  ['511', 'PW', 'Palau'],
  ['512', 'NZ', 'New Zealand'],
  ['514-515', 'KH', 'Cambodia'],
  ['516', 'CX', 'Christmas Island'],
  ['518', 'CK', 'Cook Islands'],
  ['520', 'FJ', 'Fiji'],
  ['523', 'CC', 'Cocos (Keeling) Islands'],
  ['525', 'ID', 'Indonesia'],
  ['529', 'KI', 'Kiribati'],
  ['531', 'LA', 'Laos'],
  ['533', 'MY', 'Malaysia'],
  ['536', 'MP', 'Northern Mariana Islands'],
  ['538', 'MH', 'Marshall Islands'],
  ['540', 'NC', 'New Caledonia'],
  ['542', 'NU', 'Niue'],
  ['544', 'NR', 'Nauru'],
  ['546', 'PF', 'French Polynesia'],
  ['548', 'PH', 'Philippines'],
  ['550', 'TL', 'Timor-Leste'],
  ['553', 'PG', 'Papua New Guinea'],
  ['555', 'PN', 'Pitcairn Islands'],
  ['557', 'SB', 'Solomon Islands'],
  ['559', 'AS', 'American Samoa'],
  ['561', 'WS', 'Samoa'],
  ['563-566', 'SG', 'Singapore'],
  ['567', 'TH', 'Thailand'],
  ['570', 'TO', 'Tonga'],
  ['572', 'TV', 'Tuvalu'],
  ['574', 'VN', 'Vietnam'],
  ['576-577', 'VU', 'Vanuatu'],
  ['578', 'WF', 'Wallis and Futuna'],
  // 6xx: Africa, the Atlantic and the western Indian Ocean
  ['601', 'ZA', 'South Africa'],
  ['603', 'AO', 'Angola'],
  ['605', 'DZ', 'Algeria'],
  ['607', 'TF', 'French Southern Territories', 'Saint Paul and Amsterdam Islands'],
  // Ascension has no ISO code of its own (AC is only reserved); SH is the territory that holds it.
  ['608', 'SH', 'Saint Helena, Ascension and Tristan da Cunha', 'Ascension Island'],
  ['609', 'BI', 'Burundi'],
  ['610', 'BJ', 'Benin'],
  ['611', 'BW', 'Botswana'],
  ['612', 'CF', 'Central African Republic'],
  ['613', 'CM', 'Cameroon'],
  ['615', 'CG', 'Congo'],
  ['616', 'KM', 'Comoros'],
  ['617', 'CV', 'Cabo Verde'],
  ['618', 'TF', 'French Southern Territories', 'Crozet Archipelago'],
  ['619', 'CI', "Côte d'Ivoire"],
  ['620', 'KM', 'Comoros'],
  ['621', 'DJ', 'Djibouti'],
  ['622', 'EG', 'Egypt'],
  ['624', 'ET', 'Ethiopia'],
  ['625', 'ER', 'Eritrea'],
  ['626', 'GA', 'Gabon'],
  ['627', 'GH', 'Ghana'],
  ['629', 'GM', 'Gambia'],
  ['630', 'GW', 'Guinea-Bissau'],
  ['631', 'GQ', 'Equatorial Guinea'],
  ['632', 'GN', 'Guinea'],
  ['633', 'BF', 'Burkina Faso'],
  ['634', 'KE', 'Kenya'],
  ['635', 'TF', 'French Southern Territories', 'Kerguelen Islands'],
  ['636-637', 'LR', 'Liberia'],
  ['638', 'SS', 'South Sudan'],
  ['642', 'LY', 'Libya'],
  ['644', 'LS', 'Lesotho'],
  ['645', 'MU', 'Mauritius'],
  ['647', 'MG', 'Madagascar'],
  ['649', 'ML', 'Mali'],
  ['650', 'MZ', 'Mozambique'],
  ['654', 'MR', 'Mauritania'],
  ['655', 'MW', 'Malawi'],
  ['656', 'NE', 'Niger'],
  ['657', 'NG', 'Nigeria'],
  ['659', 'NA', 'Namibia'],
  ['660', 'RE', 'Réunion'],
  ['661', 'RW', 'Rwanda'],
  ['662', 'SD', 'Sudan'],
  ['663', 'SN', 'Senegal'],
  ['664', 'SC', 'Seychelles'],
  ['665', 'SH', 'Saint Helena, Ascension and Tristan da Cunha', 'Saint Helena'],
  ['666', 'SO', 'Somalia'],
  ['667', 'SL', 'Sierra Leone'],
  ['668', 'ST', 'São Tomé and Príncipe'],
  ['669', 'SZ', 'Eswatini'],
  ['670', 'TD', 'Chad'],
  ['671', 'TG', 'Togo'],
  ['672', 'TN', 'Tunisia'],
  ['674', 'TZ', 'Tanzania'],
  ['675', 'UG', 'Uganda'],
  ['676', 'CD', 'DR Congo'],
  ['677', 'TZ', 'Tanzania'],
  ['678', 'ZM', 'Zambia'],
  ['679', 'ZW', 'Zimbabwe'],
  // 7xx: South America
  ['701', 'AR', 'Argentina'],
  ['710', 'BR', 'Brazil'],
  ['720', 'BO', 'Bolivia'],
  ['725', 'CL', 'Chile'],
  ['730', 'CO', 'Colombia'],
  ['735', 'EC', 'Ecuador'],
  ['740', 'FK', 'Falkland Islands'],
  ['745', 'GF', 'French Guiana'],
  ['750', 'GY', 'Guyana'],
  ['755', 'PY', 'Paraguay'],
  ['760', 'PE', 'Peru'],
  ['765', 'SR', 'Suriname'],
  ['770', 'UY', 'Uruguay'],
  ['775', 'VE', 'Venezuela'],
];

function expandMids(spec: string): number[] {
  const mids: number[] = [];
  for (const part of spec.split(' ')) {
    const [from, to = from] = part.split('-').map(Number) as [number, number?];
    for (let mid = from; mid <= to; mid++) mids.push(mid);
  }
  return mids;
}

/** Every allocated MID, ascending. */
export const MID_TABLE: readonly MidInfo[] = Object.freeze(
  ROWS.flatMap(([mids, alpha2, country, area]) =>
    expandMids(mids).map((mid): MidInfo => Object.freeze(area === undefined ? { mid, alpha2, country } : { mid, alpha2, country, area })),
  ).sort((a, b) => a.mid - b.mid),
);

// Dense index: MIDs are three digits, so a 1000-slot array beats a Map on the per-message path.
const BY_MID: readonly (MidInfo | undefined)[] = (() => {
  const index = new Array<MidInfo | undefined>(1000).fill(undefined);
  for (const info of MID_TABLE) index[info.mid] = info;
  return index;
})();

const BY_FLAG: ReadonlyMap<string, readonly number[]> = (() => {
  const index = new Map<string, number[]>();
  for (const { mid, alpha2 } of MID_TABLE) {
    const list = index.get(alpha2);
    if (list) list.push(mid);
    else index.set(alpha2, [mid]);
  }
  for (const list of index.values()) Object.freeze(list);
  return index;
})();

/** The allocation for a MID, or undefined when the MID is not allocated (or not a MID at all). */
export function midInfo(mid: number): MidInfo | undefined {
  return Number.isInteger(mid) && mid >= 0 && mid < 1000 ? BY_MID[mid] : undefined;
}

/** Every MID of a flag (ISO alpha-2, any case), ascending; empty when the flag has none. */
export function midsForFlag(alpha2: string): readonly number[] {
  return BY_FLAG.get(alpha2.toUpperCase()) ?? [];
}
