/** The data licence, stated in meta.citation, the OpenAPI info, and on every export. */
export const DATA_LICENSE = {
  name: 'CC BY 4.0',
  url: 'https://creativecommons.org/licenses/by/4.0/',
  terms:
    'Data licensed CC BY 4.0: attribution required. Redistribution as a competing product or resale of the raw dataset needs written permission.',
} as const;

export const INTERFACE_VERSION = '1.4.0';
export const INTERFACE_REVISION_DATE = '2026-05-08';
