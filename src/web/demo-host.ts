/** Hosts of the demo dataset's fictional startups (`.example`, reserved by RFC 2606): never a live site. */
export function isDemoHost(url: string): boolean {
  try {
    return /(^|\.)example$/.test(new URL(url).hostname);
  } catch {
    return false;
  }
}
