import { bitCount } from '../../domain/matcher.js';

/**
 * A set of document numbers as one bit per document in 32-bit words: membership is a shift and a mask, and the
 * size of a union or intersection is a pass over size/32 words. Written here rather than taken from a package because
 * it is these few lines over a Uint32Array, and the search index combines the words of several sets in one pass
 * (see InvertedIndex), which a set class's own methods would do with a new set per step.
 */
export class DocSet {
  readonly words: Uint32Array;

  constructor(readonly size: number) {
    this.words = new Uint32Array(Math.ceil(size / 32));
  }

  /** The documents below `size` that `member` accepts. */
  static where(size: number, member: (doc: number) => boolean): DocSet {
    const set = new DocSet(size);
    for (let doc = 0; doc < size; doc++) if (member(doc)) set.add(doc);
    return set;
  }

  add(doc: number): void {
    this.words[doc >>> 5]! |= 1 << (doc & 31);
  }

  has(doc: number): boolean {
    return (this.words[doc >>> 5]! & (1 << (doc & 31))) !== 0;
  }

  get count(): number {
    let count = 0;
    for (const word of this.words) count += bitCount(word);
    return count;
  }
}
