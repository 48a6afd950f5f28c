/**
 * Turns an organisation's free-text location into a country name where it can be recognised: "SF, CA" and
 * "Berlin" become "United States" and "Germany". Unrecognised text is kept tidied; empty becomes "Unknown".
 */
const COUNTRY_ALIASES: Record<string, string> = {
  usa: 'United States', us: 'United States', 'u.s.': 'United States', 'u.s.a.': 'United States',
  'united states': 'United States', 'united states of america': 'United States', america: 'United States',
  uk: 'United Kingdom', 'u.k.': 'United Kingdom', 'united kingdom': 'United Kingdom', england: 'United Kingdom',
  scotland: 'United Kingdom', wales: 'United Kingdom', 'great britain': 'United Kingdom',
  germany: 'Germany', deutschland: 'Germany', france: 'France', spain: 'Spain', españa: 'Spain', italy: 'Italy',
  netherlands: 'Netherlands', 'the netherlands': 'Netherlands', holland: 'Netherlands', belgium: 'Belgium',
  switzerland: 'Switzerland', austria: 'Austria', sweden: 'Sweden', norway: 'Norway', denmark: 'Denmark',
  finland: 'Finland', iceland: 'Iceland', ireland: 'Ireland', portugal: 'Portugal', poland: 'Poland',
  czechia: 'Czechia', 'czech republic': 'Czechia', estonia: 'Estonia', lithuania: 'Lithuania', latvia: 'Latvia',
  ukraine: 'Ukraine', romania: 'Romania', greece: 'Greece', turkey: 'Türkiye', türkiye: 'Türkiye', israel: 'Israel',
  canada: 'Canada', mexico: 'Mexico', brazil: 'Brazil', brasil: 'Brazil', argentina: 'Argentina', chile: 'Chile',
  colombia: 'Colombia', peru: 'Peru', india: 'India', china: 'China', japan: 'Japan', 'south korea': 'South Korea',
  korea: 'South Korea', singapore: 'Singapore', indonesia: 'Indonesia', vietnam: 'Vietnam', 'viet nam': 'Vietnam',
  philippines: 'Philippines', thailand: 'Thailand', malaysia: 'Malaysia', taiwan: 'Taiwan', 'hong kong': 'Hong Kong',
  australia: 'Australia', 'new zealand': 'New Zealand', nigeria: 'Nigeria', kenya: 'Kenya', egypt: 'Egypt',
  'south africa': 'South Africa', ghana: 'Ghana', uae: 'United Arab Emirates', 'united arab emirates': 'United Arab Emirates',
  'saudi arabia': 'Saudi Arabia', pakistan: 'Pakistan', bangladesh: 'Bangladesh', luxembourg: 'Luxembourg',
};

const CITY_COUNTRY: Record<string, string> = {
  'san francisco': 'United States', sf: 'United States', 'bay area': 'United States', 'new york': 'United States',
  nyc: 'United States', 'new york city': 'United States', brooklyn: 'United States', seattle: 'United States',
  boston: 'United States', austin: 'United States', 'los angeles': 'United States', la: 'United States',
  chicago: 'United States', denver: 'United States', miami: 'United States', 'palo alto': 'United States',
  'mountain view': 'United States', oakland: 'United States', 'san jose': 'United States', 'san diego': 'United States',
  portland: 'United States', atlanta: 'United States', pittsburgh: 'United States', 'washington dc': 'United States',
  'washington, d.c.': 'United States', philadelphia: 'United States', 'salt lake city': 'United States',
  london: 'United Kingdom', manchester: 'United Kingdom', edinburgh: 'United Kingdom', cambridge: 'United Kingdom',
  oxford: 'United Kingdom', berlin: 'Germany', munich: 'Germany', münchen: 'Germany', hamburg: 'Germany',
  paris: 'France', lyon: 'France', madrid: 'Spain', barcelona: 'Spain', amsterdam: 'Netherlands', rotterdam: 'Netherlands',
  zurich: 'Switzerland', zürich: 'Switzerland', geneva: 'Switzerland', stockholm: 'Sweden', oslo: 'Norway',
  copenhagen: 'Denmark', helsinki: 'Finland', dublin: 'Ireland', lisbon: 'Portugal', warsaw: 'Poland', prague: 'Czechia',
  tallinn: 'Estonia', vienna: 'Austria', milan: 'Italy', rome: 'Italy', 'tel aviv': 'Israel', toronto: 'Canada',
  montreal: 'Canada', vancouver: 'Canada', waterloo: 'Canada', 'mexico city': 'Mexico', 'são paulo': 'Brazil',
  'sao paulo': 'Brazil', 'buenos aires': 'Argentina', santiago: 'Chile', bogotá: 'Colombia', bogota: 'Colombia',
  bangalore: 'India', bengaluru: 'India', mumbai: 'India', delhi: 'India', 'new delhi': 'India', hyderabad: 'India',
  pune: 'India', chennai: 'India', beijing: 'China', shanghai: 'China', shenzhen: 'China', hangzhou: 'China',
  tokyo: 'Japan', osaka: 'Japan', seoul: 'South Korea', jakarta: 'Indonesia', sydney: 'Australia', melbourne: 'Australia',
  auckland: 'New Zealand', lagos: 'Nigeria', nairobi: 'Kenya', cairo: 'Egypt', 'cape town': 'South Africa',
  johannesburg: 'South Africa', dubai: 'United Arab Emirates', 'abu dhabi': 'United Arab Emirates', taipei: 'Taiwan',
};

const US_STATES = new Set([
  'al', 'ak', 'az', 'ar', 'ca', 'co', 'ct', 'de', 'fl', 'ga', 'hi', 'id', 'il', 'in', 'ia', 'ks', 'ky', 'la', 'me',
  'md', 'ma', 'mi', 'mn', 'ms', 'mo', 'mt', 'ne', 'nv', 'nh', 'nj', 'nm', 'ny', 'nc', 'nd', 'oh', 'ok', 'or', 'pa',
  'ri', 'sc', 'sd', 'tn', 'tx', 'ut', 'vt', 'va', 'wa', 'wv', 'wi', 'wy', 'dc', 'california', 'texas', 'washington',
  'massachusetts', 'colorado', 'florida', 'illinois', 'oregon', 'georgia', 'virginia', 'utah', 'new jersey',
]);

const REMOTE = /^(remote|worldwide|global|earth|internet|the internet|everywhere|distributed|anywhere)$/i;

export function normaliseGeography(location: string | null | undefined): string {
  const text = (location ?? '').replace(/\s+/g, ' ').trim();
  if (!text) return 'Unknown';
  const parts = text
    .split(/[,/|·•;]|\s+-\s+|\s+&\s+|\s+and\s+/i)
    .map((p) => p.trim().toLowerCase().replace(/[.()]+$/g, ''))
    .filter(Boolean);
  // The most specific country mention wins, read from the end ("Austin, TX, USA" → USA).
  for (const part of [...parts].reverse()) {
    const country = COUNTRY_ALIASES[part] ?? CITY_COUNTRY[part];
    if (country) return country;
    if (US_STATES.has(part) && parts.length > 1) return 'United States';
  }
  if (parts.every((p) => REMOTE.test(p))) return 'Remote';
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}
