/**
 * Canonical URLs of the human site and the API, built in one place. Every answer, search hit, citation and feed
 * item links through these; the website serves a page at each.
 */
export function siteUrls(baseUrl: string) {
  const e = encodeURIComponent;
  return {
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
