/** The part of damerau-levenshtein the matcher test compares with (the package ships no type declarations). */
declare module 'damerau-levenshtein' {
  export default function damerauLevenshtein(
    a: string,
    b: string,
    limit?: number,
  ): { steps: number; relative: number; similarity: number };
}
