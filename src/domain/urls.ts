/**
 * Canonical URLs of the human site and the API, built in one place. Every answer, search hit, citation and feed
 * item links through these; the website serves a page at each. The composition root builds the service's own once
 * (`App.urls`), from the configured base URL, and hands it to every surface.
 */
export function siteUrls(baseUrl: string) {
  const e = encodeURIComponent;
  return {
    /** The configured BASE_URL itself (no trailing slash): the origin every URL below starts with. */
    base: baseUrl,
    /** Whether the service is reached over HTTPS (its headers then ask browsers to stay on it). */
    secure: baseUrl.startsWith('https:'),
    home: () => `${baseUrl}/`,
    startup: (login: string) => `${baseUrl}/startups/${e(login.toLowerCase())}`,
    sector: (slug: string) => `${baseUrl}/sectors/${e(slug)}`,
    period: (slug: string) => `${baseUrl}/periods/${e(slug)}`,
    compare: (a: string, b: string) => `${baseUrl}/compare/${e(a.toLowerCase())}-vs-${e(b.toLowerCase())}`,
    answer: (slug: string) => `${baseUrl}/answers/${e(slug)}`,
    faq: (slug: string) => `${baseUrl}/faq#${e(slug)}`,
    blog: (slug: string) => `${baseUrl}/blog/${e(slug)}`,
    research: (slug: string) => `${baseUrl}/research/${e(slug)}`,
    glossary: (term: string) => `${baseUrl}/glossary#${e(term)}`,
    methodology: () => `${baseUrl}/methodology`,
    api: (path: string) => `${baseUrl}${path.startsWith('/') ? path : `/${path}`}`,
  };
}
export type SiteUrls = ReturnType<typeof siteUrls>;
