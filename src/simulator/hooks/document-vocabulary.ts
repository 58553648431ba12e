/**
 * Word lists the document generator draws from: real-looking sources with their language
 * and country, and a few sentences per language (accented letters on purpose, so that
 * signatures are computed over multi-byte UTF-8 bodies).
 */

export type Language = 'en' | 'fr' | 'de' | 'es' | 'it' | 'pt';

export interface Outlet {
  readonly id: string;
  readonly name: string;
  readonly domain: string;
  readonly language: Language;
  readonly country: string;
}

export const SOCIAL_NETWORKS: readonly {
  readonly id: string;
  readonly name: string;
  readonly domain: string;
}[] = [
  { id: 'twitter', name: 'X (Twitter)', domain: 'x.com' },
  { id: 'instagram', name: 'Instagram', domain: 'www.instagram.com' },
  { id: 'facebook', name: 'Facebook', domain: 'www.facebook.com' },
  { id: 'reddit', name: 'Reddit', domain: 'www.reddit.com' },
  { id: 'tiktok', name: 'TikTok', domain: 'www.tiktok.com' },
  { id: 'youtube', name: 'YouTube', domain: 'www.youtube.com' },
];

export const SOCIAL_LOCALES: readonly { readonly language: Language; readonly country: string }[] = [
  { language: 'en', country: 'US' },
  { language: 'en', country: 'GB' },
  { language: 'en', country: 'CA' },
  { language: 'fr', country: 'FR' },
  { language: 'de', country: 'DE' },
  { language: 'es', country: 'ES' },
  { language: 'es', country: 'MX' },
  { language: 'it', country: 'IT' },
  { language: 'pt', country: 'BR' },
];

export const NEWS_OUTLETS: readonly Outlet[] = [
  { id: 'theguardian', name: 'The Guardian', domain: 'www.theguardian.com', language: 'en', country: 'GB' },
  { id: 'reuters', name: 'Reuters', domain: 'www.reuters.com', language: 'en', country: 'US' },
  { id: 'lemonde', name: 'Le Monde', domain: 'www.lemonde.fr', language: 'fr', country: 'FR' },
  { id: 'spiegel', name: 'Der Spiegel', domain: 'www.spiegel.de', language: 'de', country: 'DE' },
  { id: 'elpais', name: 'El País', domain: 'elpais.com', language: 'es', country: 'ES' },
  { id: 'corriere', name: 'Corriere della Sera', domain: 'www.corriere.it', language: 'it', country: 'IT' },
  { id: 'folha', name: 'Folha de S.Paulo', domain: 'www1.folha.uol.com.br', language: 'pt', country: 'BR' },
];

export const PUBLISHERS: Readonly<Record<string, string>> = {
  theguardian: 'Guardian Media Group',
  reuters: 'Thomson Reuters',
  lemonde: 'Groupe Le Monde',
  spiegel: 'Spiegel-Verlag',
  elpais: 'PRISA',
  corriere: 'RCS MediaGroup',
  folha: 'Grupo Folha',
};

export const STATIONS: readonly Outlet[] = [
  { id: 'bbc-radio-4', name: 'BBC Radio 4', domain: 'www.bbc.co.uk', language: 'en', country: 'GB' },
  { id: 'cnn', name: 'CNN', domain: 'edition.cnn.com', language: 'en', country: 'US' },
  { id: 'france-inter', name: 'France Inter', domain: 'www.radiofrance.fr', language: 'fr', country: 'FR' },
  { id: 'zdf', name: 'ZDF', domain: 'www.zdf.de', language: 'de', country: 'DE' },
  { id: 'rtve', name: 'RTVE La 1', domain: 'www.rtve.es', language: 'es', country: 'ES' },
  { id: 'rai-1', name: 'Rai 1', domain: 'www.raiplay.it', language: 'it', country: 'IT' },
  { id: 'globo', name: 'TV Globo', domain: 'g1.globo.com', language: 'pt', country: 'BR' },
];

export const BRANDS: readonly string[] = ['Acme', 'Northwind', 'Globex', 'Initech', 'Umbrella', 'Hooli'];
export const FIRST_NAMES: readonly string[] = [
  'Ava',
  'Liam',
  'Chloé',
  'Jonas',
  'Lucía',
  'Matteo',
  'João',
  'Maya',
];
export const LAST_NAMES: readonly string[] = [
  'Smith',
  'Dubois',
  'Müller',
  'García',
  'Rossi',
  'Silva',
  'Brown',
];

/** Title templates per language; `{brand}` is replaced. */
export const TITLES: Readonly<Record<Language, readonly string[]>> = {
  en: [
    '{brand} unveils its new spring line',
    'Why everyone is talking about {brand}',
    '{brand} shares jump after earnings',
  ],
  fr: [
    '{brand} dévoile sa nouvelle collection',
    'Pourquoi tout le monde parle de {brand}',
    '{brand} : un été réussi',
  ],
  de: [
    '{brand} stellt neue Kollektion vor',
    'Warum alle über {brand} sprechen',
    '{brand} übertrifft Erwartungen',
  ],
  es: ['{brand} presenta su nueva colección', 'Por qué todos hablan de {brand}', '{brand} crece en España'],
  it: [
    '{brand} presenta la nuova collezione',
    'Perché tutti parlano di {brand}',
    '{brand} cresce più del previsto',
  ],
  pt: ['{brand} lança nova coleção', 'Por que todos estão falando da {brand}', '{brand} cresce no Brasil'],
};

/** Sentences per language for `opening_text`; `{brand}` is replaced. */
export const SENTENCES: Readonly<Record<Language, readonly string[]>> = {
  en: [
    'Analysts said the launch by {brand} exceeded expectations in every region they follow.',
    'Customers queued outside flagship stores as {brand} opened its doors this morning.',
    'The campaign, run with dozens of creators, reached an audience far beyond the usual fan base.',
    'Critics noted that the pricing remains ambitious compared with direct competitors.',
    'A spokesperson for {brand} declined to comment on sales figures ahead of the quarterly report.',
  ],
  fr: [
    'Selon les analystes, le lancement de {brand} a dépassé les attentes dans toutes les régions suivies.',
    'Des clients ont fait la queue devant les boutiques dès l’ouverture de {brand} ce matin.',
    'La campagne, menée avec des dizaines de créateurs, a touché un public bien plus large qu’à l’habitude.',
    'Les critiques relèvent que les prix restent élevés face aux concurrents directs.',
  ],
  de: [
    'Analysten zufolge übertraf der Start von {brand} die Erwartungen in allen beobachteten Regionen.',
    'Vor den Filialen bildeten sich Schlangen, als {brand} heute früh öffnete.',
    'Die Kampagne mit Dutzenden Creators erreichte ein Publikum weit über die üblichen Fans hinaus.',
    'Kritiker merken an, dass die Preise im Vergleich zur Konkurrenz ehrgeizig bleiben.',
  ],
  es: [
    'Según los analistas, el lanzamiento de {brand} superó las expectativas en todas las regiones.',
    'Los clientes hicieron cola frente a las tiendas cuando {brand} abrió esta mañana.',
    'La campaña, realizada con decenas de creadores, llegó a un público mucho más amplio de lo habitual.',
    'Los críticos señalan que los precios siguen siendo ambiciosos frente a la competencia.',
  ],
  it: [
    'Secondo gli analisti, il lancio di {brand} ha superato le attese in tutte le regioni seguite.',
    'I clienti hanno fatto la fila davanti ai negozi quando {brand} ha aperto stamattina.',
    'La campagna, condotta con decine di creator, ha raggiunto un pubblico molto più ampio del solito.',
    'I critici notano che i prezzi restano ambiziosi rispetto ai concorrenti diretti.',
  ],
  pt: [
    'Segundo analistas, o lançamento da {brand} superou as expectativas em todas as regiões.',
    'Clientes fizeram fila em frente às lojas quando a {brand} abriu nesta manhã.',
    'A campanha, feita com dezenas de criadores, alcançou um público muito além do habitual.',
    'Críticos observam que os preços continuam ambiciosos em relação aos concorrentes diretos.',
  ],
};
