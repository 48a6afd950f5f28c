import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { TaskState, type Task } from '@a2a-js/sdk';
import { SharedTaskStore } from '../../src/agents/a2a/task-store.js';
import { loadA2aTask, purgeA2aTasks, saveA2aTask } from '../../src/store/a2a-tasks.js';
import { migrateToLatest, openStore, type Store } from '../../src/store/database.js';
import { createTestStorage, type TestStorage } from '../helpers/database.js';

/** A task as the agent stores it: a status with a message, a history and a data artifact. */
const task = (id: string, state: TaskState): Task => ({
  id,
  contextId: 'ctx-1',
  status: { state, message: undefined, timestamp: new Date().toISOString() },
  artifacts: [
    {
      artifactId: 'a-1',
      name: 'result',
      description: '',
      parts: [
        {
          content: { $case: 'data', value: { found: true, name: 'Zepatra Cloud' } },
          metadata: undefined,
          filename: '',
          mediaType: 'application/json',
        },
      ],
      metadata: undefined,
      extensions: [],
    },
  ],
  history: [],
  metadata: undefined,
});

describe('A2A tasks in the database', () => {
  let storage: TestStorage;
  let store: Store;
  /** Two instances' task stores over one database. */
  let first: SharedTaskStore;
  let second: SharedTaskStore;

  before(async () => {
    storage = await createTestStorage({ contents: 'migrated' });
    store = await openStore({ dataDir: storage.dataDir, databaseUrl: storage.databaseUrl, poolSize: 2 });
    await migrateToLatest(store.db);
    const records = {
      save: (id: string, t: unknown) => saveA2aTask(store.db, id, t),
      load: (id: string) => loadA2aTask(store.db, id),
    };
    first = new SharedTaskStore(records);
    second = new SharedTaskStore(records);
  });

  after(async () => {
    await store.close();
    await storage.cleanup();
  });

  test('a task saved by one instance is fetched by another, in its latest state', async () => {
    const id = 'b2d6a3e0-0000-4000-8000-000000000001';
    await first.save(task(id, TaskState.TASK_STATE_WORKING));
    const done = task(id, TaskState.TASK_STATE_COMPLETED);
    await first.save(done);
    assert.deepEqual(await second.load(id), JSON.parse(JSON.stringify(done)));
  });

  test('an unknown task is not found', async () => {
    assert.equal(await second.load('b2d6a3e0-0000-4000-8000-00000000ffff'), undefined);
  });

  test('a task unchanged for a day is no longer fetched, and the purge deletes it', async () => {
    const id = 'b2d6a3e0-0000-4000-8000-000000000002';
    await first.save(task(id, TaskState.TASK_STATE_COMPLETED));
    await sql`update a2a_tasks set updated_at = now() - interval '25 hours' where id = ${id}`.execute(store.db);
    assert.equal(await second.load(id), undefined);
    assert.ok((await purgeA2aTasks(store.db)) >= 1);
    const left = await store.db.selectFrom('a2a_tasks').select('id').where('id', '=', id).execute();
    assert.deepEqual(left, []);
  });

  test('while the database does not answer, a task is still saved and fetched on the instance that ran it', async () => {
    const errors: unknown[] = [];
    const down = {
      save: () => Promise.reject(new Error('connection refused')),
      load: () => Promise.reject(new Error('connection refused')),
    };
    const alone = new SharedTaskStore(down, (err) => errors.push(err));
    const id = 'b2d6a3e0-0000-4000-8000-000000000003';
    await alone.save(task(id, TaskState.TASK_STATE_COMPLETED));
    assert.equal((await alone.load(id))?.status?.state, TaskState.TASK_STATE_COMPLETED);
    assert.equal(await alone.load('b2d6a3e0-0000-4000-8000-00000000fffe'), undefined);
    assert.equal(errors.length, 2, 'each failure is reported');
  });

  test('listing tasks is refused', async () => {
    await assert.rejects(first.list());
  });
});
