/**
 * An equal CPU share for the processes a benchmark compares: each is pinned to the same core (taskset) and capped at
 * the same CPU quota (a cgroup of its own). Tried in order:
 *  1. cgroup v2 with the cpu controller: `cpu.max` = "<quota × period> <period>";
 *  2. cgroup v1 cpu controller: `cpu.cfs_quota_us` / `cpu.cfs_period_us`;
 *  3. no quota (pinning only), said loudly in `describe` so a report never passes it off as capped.
 * Creating cgroups needs root (or a delegated cgroup); the benchmark removes the groups it made when it ends.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const PERIOD_US = 100_000;

export interface CpuShare {
  /** How the share is enforced, for the report: e.g. "core 1, 0.5 CPU (cgroup v1 cfs quota)". */
  describe: string;
  /** Pins `pid` (every thread) to the core and puts it in its own group with the quota. */
  confine(pid: number, name: string): Promise<void>;
  /** Removes the groups this share created. */
  close(): Promise<void>;
}

interface Mount {
  type: string;
  point: string;
  options: string[];
}

function mounts(): Mount[] {
  return fs
    .readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [left, right] = line.split(' - ');
      const fields = left!.split(' ');
      const [type, , superOptions] = right!.split(' ');
      return { type: type!, point: fields[4]!, options: (superOptions ?? '').split(',') };
    });
}

function tryWrite(file: string, value: string): boolean {
  try {
    fs.writeFileSync(file, value);
    return true;
  } catch {
    return false;
  }
}

/** A fresh directory for one process under `root`, with its quota written by `limit`; undefined if not allowed. */
function makeGroup(root: string, name: string, limit: (dir: string) => boolean): string | undefined {
  const dir = path.join(root, `signal-bench-${process.pid}-${name}`);
  try {
    fs.mkdirSync(dir);
  } catch {
    return undefined;
  }
  if (limit(dir)) return dir;
  fs.rmdirSync(dir);
  return undefined;
}

type GroupMaker = { kind: string; make(name: string): string | undefined };

function cgroupMaker(quota: number): GroupMaker | undefined {
  const all = mounts();
  const v2 = all.find((m) => m.type === 'cgroup2');
  if (v2) {
    try {
      const controllers = fs.readFileSync(path.join(v2.point, 'cgroup.controllers'), 'utf8').split(/\s+/);
      if (controllers.includes('cpu')) {
        tryWrite(path.join(v2.point, 'cgroup.subtree_control'), '+cpu');
        const maker: GroupMaker = {
          kind: 'cgroup v2 cpu.max',
          make: (name) =>
            makeGroup(v2.point, name, (dir) =>
              tryWrite(path.join(dir, 'cpu.max'), `${Math.round(quota * PERIOD_US)} ${PERIOD_US}`),
            ),
        };
        const probe = maker.make('probe');
        if (probe) {
          fs.rmdirSync(probe);
          return maker;
        }
      }
    } catch {
      // not usable: fall through to v1
    }
  }
  const v1 = all.find((m) => m.type === 'cgroup' && m.options.includes('cpu'));
  if (v1) {
    const maker: GroupMaker = {
      kind: 'cgroup v1 cpu.cfs_quota_us',
      make: (name) =>
        makeGroup(
          v1.point,
          name,
          (dir) =>
            tryWrite(path.join(dir, 'cpu.cfs_period_us'), String(PERIOD_US)) &&
            tryWrite(path.join(dir, 'cpu.cfs_quota_us'), String(Math.round(quota * PERIOD_US))),
        ),
    };
    const probe = maker.make('probe');
    if (probe) {
      fs.rmdirSync(probe);
      return maker;
    }
  }
  return undefined;
}

export async function hasTaskset(): Promise<boolean> {
  try {
    await run('taskset', ['-V']);
    return true;
  } catch {
    return false;
  }
}

/** Pins every thread of `pid` to the given cores (`"1"`, `"0-1"`); false when taskset is missing or refuses. */
export async function pin(pid: number, cores: string): Promise<boolean> {
  try {
    await run('taskset', ['-a', '-p', '-c', cores, String(pid)]);
    return true;
  } catch {
    return false;
  }
}

export async function cpuShare(core: number, quota: number): Promise<CpuShare> {
  const maker = cgroupMaker(quota);
  const taskset = await hasTaskset();
  const groups: string[] = [];
  const how = [taskset ? `pinned to core ${core}` : 'not pinned (taskset missing)'];
  how.push(
    maker
      ? `${quota} CPU per ${PERIOD_US / 1000} ms period (${maker.kind})`
      : 'NO CPU QUOTA (cgroups not writable here)',
  );
  return {
    describe: how.join(', '),
    async confine(pid, name) {
      if (taskset) await pin(pid, String(core));
      if (!maker) return;
      const dir = maker.make(name);
      if (!dir) throw new Error(`could not create a cgroup for ${name}`);
      groups.push(dir);
      fs.writeFileSync(path.join(dir, 'cgroup.procs'), String(pid));
    },
    async close() {
      for (const dir of groups.splice(0)) {
        // A group can be removed once its processes have exited; give them a moment.
        for (let attempt = 0; attempt < 20; attempt++) {
          try {
            fs.rmdirSync(dir);
            break;
          } catch {
            await new Promise((r) => setTimeout(r, 100));
          }
        }
      }
    },
  };
}
