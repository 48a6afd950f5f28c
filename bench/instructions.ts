/**
 * Instructions per request, counted by valgrind's callgrind: the HTTP benchmark's second measure of the work a server
 * does per request, beside its CPU time. CPU time per request under a CPU quota moves with the machine (rounds of one
 * row span 10–30%, and on one day the same machine ran three times slower for some hours than before); the number of
 * instructions a server executes for the same requests does not, so a difference of a few percent between the service
 * and the bare server shows in one run and stays put. It is not time: a cache miss costs no more instructions than a
 * hit, and the kernel's work (copying the body into the socket) is not counted.
 *
 * A server runs under `valgrind --tool=callgrind --instr-atstart=no`: uninstrumented (valgrind's translation only,
 * several times slower than native) until it is warm, then, for each measured route, five times: the counters are
 * zeroed, instrumentation switched on for a fixed number of requests, off again, and the counts dumped
 * (callgrind_control); the window with the fewest instructions is reported, less what the server runs with no request
 * at all in as long (its timers: the lowest rate of three idle windows, counted first). Every thread of the process is
 * counted (V8's collector and compiler threads too), none of its children's.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import autocannon from 'autocannon';

const run = promisify(execFile);

/** Whether valgrind and callgrind_control can be run here. */
export async function hasCallgrind(): Promise<boolean> {
  try {
    await run('valgrind', ['--version']);
    await run('callgrind_control', ['--version']);
    return true;
  } catch {
    return false;
  }
}

/** A server started under callgrind: the command prefix to run it with, and how to count its requests. */
export interface Callgrind {
  /** `valgrind …` to put in front of the server's command. */
  prefix: string[];
  /**
   * Instructions per request over `count` requests rotating through `paths`, sent on 10 keep-alive connections
   * right after twice as many uninstrumented (so the code they run is compiled and its caches are warm).
   */
  perRequest(
    pid: number,
    base: string,
    paths: readonly string[],
    headers: Record<string, string>,
    count: number,
  ): Promise<Counted>;
  /**
   * Instructions per second the server runs with no request (its timers: a period poll, sweeps, store checks),
   * over `seconds`: `perRequest` takes them out of its windows, which last about fifty times longer under valgrind
   * than the same requests natively.
   */
  idle(pid: number, seconds: number): Promise<number>;
}

/** What one server executed per request: instructions, and with BENCH_CACHE_SIM=1 its simulated L1 misses. */
export interface Counted {
  instructions: number;
  /** Instruction-cache misses (callgrind's I1mr), with BENCH_CACHE_SIM=1. */
  i1Misses?: number;
  /** Data-cache read and write misses (D1mr + D1mw), with BENCH_CACHE_SIM=1. */
  d1Misses?: number;
}

/**
 * BENCH_CACHE_SIM=1: callgrind also simulates the first-level caches (32 KB instruction, the machine's data cache) and
 * the last level, and each row reports the L1 misses per request. An instruction count does not see how long an
 * instruction takes; a miss that the next level answers costs about ten cycles more. The runs take twice as long.
 */
export const CACHE_SIM = process.env.BENCH_CACHE_SIM === '1';

/** Windows counted per row: the fewest instructions of them is reported (see `perRequest`). */
const WINDOWS = 5;
/** Idle windows: the lowest rate of them is taken out (a compilation finishing in one is not the timers'). */
const IDLE_WINDOWS = 3;

/**
 * `host`: the HOST the server runs with. Valgrind names its control pipes after the user and host the environment
 * gives, and the control command must find them under the same names.
 */
export function callgrind(dir: string, name: string, host: string | undefined): Callgrind {
  const out = path.join(dir, `${name}.callgrind`);
  // Its own place for the control pipes, apart from any other valgrind run's (their names still carry user and host).
  const vgdbPrefix = path.join(dir, `${name}-vgdb`);
  const env = { ...process.env };
  if (host === undefined) delete env.HOST;
  else env.HOST = host;
  const control = async (pid: number, ...args: string[]) => {
    const { stdout, stderr } = await run('callgrind_control', [`--vgdb-prefix=${vgdbPrefix}`, ...args, String(pid)], {
      env,
      timeout: 120_000,
    });
    // It says so, and exits with 0, when it did not reach the server.
    if (/error|failed|no .*found/i.test(stdout + stderr))
      throw new Error(`callgrind_control ${args.join(' ')}: ${stdout}${stderr}`);
  };
  const send = async (base: string, paths: readonly string[], headers: Record<string, string>, count: number) => {
    const result = await autocannon({
      url: base,
      connections: 10,
      amount: count,
      timeout: 120,
      requests: paths.map((p) => ({ method: 'GET', path: p, headers })),
    });
    if (result.non2xx > 0 || result.errors > 0)
      throw new Error(`${base}${paths[0]}: ${result.non2xx} non-2xx, ${result.errors} errors under callgrind`);
    return result.requests.total;
  };
  let dumps = 0;
  let idlePerSecond = 0;
  // The control command returns once the dump is asked for; callgrind writes it when the server's threads next run.
  const totals = async (file: string): Promise<Map<string, number>> => {
    for (let waited = 0; ; waited += 100) {
      const text = await fs.readFile(file, 'utf8').catch(() => '');
      const events = /^events: (.+)$/m.exec(text);
      const found = /^totals: ([\d ]+)$/m.exec(text);
      if (events && found) {
        const values = found[1]!.trim().split(' ').map(Number);
        return new Map(
          events[1]!
            .trim()
            .split(' ')
            .map((name, i) => [name, values[i] ?? 0]),
        );
      }
      if (waited > 60_000) throw new Error(`no totals in ${file} after 60 s`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  return {
    prefix: [
      'valgrind',
      '--tool=callgrind',
      '--instr-atstart=no',
      ...(CACHE_SIM ? ['--cache-sim=yes'] : []),
      `--vgdb-prefix=${vgdbPrefix}`,
      `--callgrind-out-file=${out}`,
    ],
    async perRequest(pid, base, paths, headers, count) {
      // Twice as many first: fewer left V8's compiler still at work on the code they run, counted in the window.
      await send(base, paths, headers, 2 * count);
      // The fewest of five windows. What the process does besides the requests (a timer, a compilation finishing, a
      // full collection started by a timer) only ever adds to a window, and under valgrind a window lasts about
      // 20 s: in runs of 2026-11-29, two windows of three in the service held a full collection or a compilation
      // (up to three times the others' count), so their median moved by 30% from one run to the next.
      let fewest: Counted | undefined;
      for (let i = 0; i < WINDOWS; i++) {
        await control(pid, '--zero');
        await control(pid, '--instr=on');
        const started = performance.now();
        const answered = await send(base, paths, headers, count);
        const seconds = (performance.now() - started) / 1000;
        await control(pid, '--instr=off');
        await control(pid, '--dump');
        const counts = await totals(`${out}.${++dumps}`);
        const per = (event: string) => (counts.get(event) ?? 0) / answered;
        const window: Counted = {
          instructions: Math.round(per('Ir') - (idlePerSecond * seconds) / answered),
          ...(counts.has('I1mr')
            ? { i1Misses: Math.round(per('I1mr')), d1Misses: Math.round(per('D1mr') + per('D1mw')) }
            : {}),
        };
        if (fewest === undefined || window.instructions < fewest.instructions) fewest = window;
      }
      return fewest!;
    },
    async idle(pid, seconds) {
      const rates: number[] = [];
      for (let i = 0; i < IDLE_WINDOWS; i++) {
        await control(pid, '--zero');
        await control(pid, '--instr=on');
        const started = performance.now();
        await new Promise((resolve) => setTimeout(resolve, (seconds * 1000) / IDLE_WINDOWS));
        const elapsed = (performance.now() - started) / 1000;
        await control(pid, '--instr=off');
        await control(pid, '--dump');
        rates.push(((await totals(`${out}.${++dumps}`)).get('Ir') ?? 0) / elapsed);
      }
      idlePerSecond = Math.min(...rates);
      return Math.round(idlePerSecond);
    },
  };
}
