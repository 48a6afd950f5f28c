import type { CollectionState } from '../schemas/enums.js';

/**
 * Whether an organisation's collection was complete for a published week, as every record says it beside its
 * Startup object (dataset lines, CSV rows, Deep Signal): `collection` and, when partial, `collectionNote`, the one
 * line of what GitHub's answer left out (the collector's note, the same that `pipeline status` shows).
 */
export interface CollectionFacts {
  collection: CollectionState;
  /** What was missing, when partial; null otherwise. */
  collectionNote: string | null;
}

export const COMPLETE: CollectionFacts = { collection: 'complete', collectionNote: null };

/** From the collector's note of an organisation: none means it was collected whole. */
export function collectionFromNote(note: string | null | undefined): CollectionFacts {
  return note ? { collection: 'partial', collectionNote: note } : COMPLETE;
}

/**
 * From the columns stored with a published record (migration 0010_collection). Real weeks published before them hold
 * null: they read as unknown, with a null note.
 */
export function storedCollection(collection: string | null, note: string | null): CollectionFacts {
  if (collection === 'partial') return { collection: 'partial', collectionNote: note };
  if (collection === 'complete') return COMPLETE;
  return { collection: 'unknown', collectionNote: null };
}

/** The facts of a record that may not carry them (a snapshot built in memory from generated data is complete). */
export function collectionOf(s: { collection?: CollectionFacts | undefined }): CollectionFacts {
  return s.collection ?? COMPLETE;
}
