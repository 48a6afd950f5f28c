import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isInfrastructurePath } from '../../src/pipeline/changes.js';

describe('infrastructure paths inside repositories', () => {
  test('configuration and scripts in a deploy folder are infrastructure', () => {
    for (const path of ['deploy/values.yaml', 'ops/deployment/prod/app.json', 'deployments/run.sh', 'deploy/main.tf']) {
      assert.equal(isInfrastructurePath(path), true, path);
    }
  });

  test("a product's own source code in a folder named deployment is not infrastructure", () => {
    for (const path of [
      'service/worker/deployment/deployment_workflow.go',
      'api/deployment/v1/message.pb.go',
      'cloud/deployments/commands.py',
      'src/deploy/index.ts',
    ]) {
      assert.equal(isInfrastructurePath(path), false, path);
    }
  });

  test('source code in an infra folder (a CDK or Pulumi program) is infrastructure', () => {
    assert.equal(isInfrastructurePath('infra/stacks/api.ts'), true);
    assert.equal(isInfrastructurePath('pulumi/index.go'), true);
  });

  test('CI workflows and Dockerfiles are infrastructure wherever they sit', () => {
    assert.equal(isInfrastructurePath('.github/workflows/release.yml'), true);
    assert.equal(isInfrastructurePath('services/api/Dockerfile'), true);
  });
});
